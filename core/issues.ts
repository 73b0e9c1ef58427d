// What a parameter or field that failed its schema is told, in our words rather than zod's
// ("Invalid input: expected string, received undefined" becomes "`tag` is required"). The words
// name no door: the same parameter is a query parameter over REST and a tool argument over MCP,
// so a message says "parameter `limit`", never "query parameter".
import { z } from 'zod';
import { clipped } from './errors.ts';

type Issue = z.core.$ZodIssue;

/** Whether zod wrote this message itself (then we write our own) or a schema of ours gave it. */
function zodsOwnWords(issue: Issue): boolean {
  const fallback = z.config().localeError?.(issue as never);
  return issue.message === (typeof fallback === 'string' ? fallback : fallback?.message);
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/** zod's name of a type, as a client would call it. */
function typeName(expected: string): string {
  switch (expected) {
    case 'int':
      return 'a whole number';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'array':
    case 'tuple':
      return 'a list';
    case 'object':
    case 'record':
      return 'an object';
    case 'date':
      return 'a date';
    default:
      return article(expected);
  }
}

const listed = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? clipped(v, 40) : String(v))).join(', ');

function sizeOf(origin: string, n: number | bigint): string {
  if (origin === 'string') return `${n} character${n === 1 ? '' : 's'} long`;
  if (origin === 'array' || origin === 'set') return `${n} item${n === 1 ? '' : 's'}`;
  if (origin === 'file') return `${n} bytes`;
  return String(n);
}

/** What is wrong, as the rest of a sentence whose subject is the parameter: "is at most 100". */
export function predicate(issue: Issue): string {
  if (!zodsOwnWords(issue) && issue.code !== 'invalid_type') return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      const input = (issue as { input?: unknown }).input;
      if (input === undefined) return 'is required';
      // a query parameter given twice arrives as a list
      if (Array.isArray(input) && issue.expected !== 'array') return `must be ${typeName(issue.expected)}, not a list`;
      return `must be ${typeName(issue.expected)}`;
    }
    case 'too_big': {
      const size = issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set' || issue.origin === 'file';
      if (size) return `${issue.origin === 'string' ? 'is' : 'has'} at most ${sizeOf(issue.origin, issue.inclusive === false ? Number(issue.maximum) - 1 : issue.maximum)}`;
      return issue.inclusive === false ? `is less than ${issue.maximum}` : `is at most ${issue.maximum}`;
    }
    case 'too_small': {
      const size = issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set' || issue.origin === 'file';
      if (size && Number(issue.minimum) === 1 && issue.inclusive !== false && !issue.exact) return 'must not be empty';
      if (size && issue.exact) return `${issue.origin === 'string' ? 'is' : 'has'} exactly ${sizeOf(issue.origin, issue.minimum)}`;
      if (size) return `${issue.origin === 'string' ? 'is' : 'has'} at least ${sizeOf(issue.origin, issue.inclusive === false ? Number(issue.minimum) + 1 : issue.minimum)}`;
      return issue.inclusive === false ? `is more than ${issue.minimum}` : `is at least ${issue.minimum}`;
    }
    case 'invalid_value':
      if ((issue as { expected?: string }).expected === 'stringbool') return 'must be true or false';
      return issue.values.length === 1 ? `must be ${listed(issue.values)}` : `must be one of ${listed(issue.values)}`;
    case 'invalid_format':
      switch (issue.format) {
        case 'regex':
          return `does not have the expected form (${clipped(issue.pattern ?? '', 80)})`;
        case 'url':
          return 'must be a URL';
        case 'email':
          return 'must be an email address';
        case 'datetime':
          return 'must be a date and time, ISO 8601 in UTC (e.g. 2024-01-02T03:04:05Z)';
        case 'date':
          return 'must be a date, YYYY-MM-DD';
        case 'starts_with':
        case 'ends_with':
        case 'includes':
          return `must ${issue.format.replace('_', ' ')} "${(issue as { prefix?: string; suffix?: string; includes?: string }).prefix ?? (issue as { suffix?: string }).suffix ?? (issue as { includes?: string }).includes}"`;
        default:
          return `must be ${article(issue.format)}`;
      }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'a field it does not accept' : 'fields it does not accept'}: ${listed(issue.keys)}`;
    case 'invalid_union': {
      const { options } = issue as { options?: unknown[] };
      if (options?.length) return `must be one of ${listed(options)}`;
      // each alternative's own complaint about the value as a whole: "a string or a number"
      const wanted = issue.errors.flatMap((branch) => branch.filter((i) => i.path.length === 0).slice(0, 1)).map((i) => (i.code === 'invalid_type' ? typeName(i.expected) : i.code === 'invalid_value' ? listed(i.values) : null));
      if (wanted.length && wanted.every((w) => w !== null)) return `must be ${[...new Set(wanted)].join(' or ')}`;
      return 'is not in any of the accepted forms';
    }
    case 'invalid_key':
      return issue.issues[0] ? `is not an accepted key: it ${predicate(issue.issues[0])}` : 'is not an accepted key';
    case 'invalid_element':
      return issue.issues[0] ? `holds a value that ${predicate(issue.issues[0])}` : 'holds a value that is not accepted';
    default:
      return 'is not valid';
  }
}

/** A parameter or field as a message names it: `limit`, `query.params.form`; the client's own names are clipped. */
export function fieldName(path: readonly PropertyKey[]): string {
  return `\`${clipped(path.map(String).join('.'))}\``;
}

/** One sentence for one issue, about `subject` (e.g. "Parameter `limit`", "`description`"). */
export function issueSentence(subject: string, issue: Issue): string {
  const words = predicate(issue);
  // A message our schemas give is a phrase of its own ("expected a CIK, up to 10 digits"), not a predicate.
  return zodsOwnWords(issue) || issue.code === 'invalid_type' ? `${subject} ${words}.` : `${subject}: ${words}.`;
}
