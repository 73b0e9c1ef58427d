// The digest email of one monitor match: subject, plain-text and HTML parts, and the list headers
// that give mail clients an unsubscribe button (RFC 2369, RFC 8058 one-click).
export type DigestLine = {
  title: string;
  detail: string | null;
  accessionNumber: string | null;
  citationUrl: string | null;
  filedAt: string | null;
};

export interface DigestInput {
  monitor: { id: string; name: string };
  /** the lines shown; totalMatched may be larger */
  items: DigestLine[];
  totalMatched: number;
  /** the link people follow: it unsubscribes and answers a confirmation page (idempotent) */
  unsubscribeUrl: string;
  /** the RFC 8058 target that mail clients POST `List-Unsubscribe=One-Click` to */
  oneClickUrl: string;
  serviceName?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

const maxSubjectName = 100;

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in element text and in double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c]);
}

/** Data on one line: control characters and line breaks would forge lines of the text part. */
function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
}

function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** A header URL must be http(s) and may hold no '<', '>' or space (it sits inside angle brackets). */
function headerUrl(value: string): string {
  if (!isWebUrl(value)) throw new Error('unsubscribe URL must be http(s)');
  return new URL(value).href;
}

function plural(count: number): string {
  return `${count} new ${count === 1 ? 'match' : 'matches'}`;
}

export function renderMatchDigest(input: DigestInput): RenderedEmail {
  const service = input.serviceName ?? 'Investor Data Service';
  const name = oneLine(input.monitor.name);
  const subjectName = name.length > maxSubjectName ? `${name.slice(0, maxSubjectName - 1)}…` : name;
  const more = Math.max(0, input.totalMatched - input.items.length);
  const moreLine = more > 0 ? `…and ${more} more in the monitor.matched event.` : null;
  const citeNote = 'Every number cites the filing it came from.';
  const why = `You get this email because the monitor "${name}" (${input.monitor.id}) of your ${service} account delivers its matches to this address.`;

  const textLines = [`Monitor "${name}": ${plural(input.totalMatched)}.`, ''];
  input.items.forEach((item, index) => {
    textLines.push(`${index + 1}. ${oneLine(item.title)}`);
    if (item.detail) textLines.push(`   ${oneLine(item.detail)}`);
    const facts = [item.filedAt && `Filed ${oneLine(item.filedAt)}`, item.accessionNumber && `Accession ${oneLine(item.accessionNumber)}`].filter(Boolean);
    if (facts.length) textLines.push(`   ${facts.join(' · ')}`);
    if (item.citationUrl) textLines.push(`   ${oneLine(item.citationUrl)}`);
    textLines.push('');
  });
  if (moreLine) textLines.push(moreLine, '');
  textLines.push(citeNote, '', '-- ', why, `Unsubscribe: ${input.unsubscribeUrl}`, '');

  const htmlItems = input.items.map((item) => {
    const facts = [
      item.filedAt && `Filed ${escapeHtml(item.filedAt)}`,
      item.accessionNumber && `Accession <code>${escapeHtml(item.accessionNumber)}</code>`,
    ].filter(Boolean);
    // Only web links become anchors: a javascript: or data: URL from the data stays inert text.
    const citation = item.citationUrl
      ? isWebUrl(item.citationUrl)
        ? `<a href="${escapeHtml(item.citationUrl)}">${escapeHtml(item.citationUrl)}</a>`
        : escapeHtml(item.citationUrl)
      : null;
    return [
      `<li><strong>${escapeHtml(item.title)}</strong>`,
      item.detail ? `<br>${escapeHtml(item.detail)}` : '',
      facts.length ? `<br><small>${facts.join(' · ')}</small>` : '',
      citation ? `<br><small>${citation}</small>` : '',
      '</li>',
    ].join('');
  });
  const html = [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"></head><body style="font-family: sans-serif">',
    `<p>Monitor “${escapeHtml(name)}”: ${plural(input.totalMatched)}.</p>`,
    `<ol>${htmlItems.join('')}</ol>`,
    moreLine ? `<p>${escapeHtml(moreLine)}</p>` : '',
    `<p><small>${escapeHtml(citeNote)}</small></p>`,
    `<hr><p><small>${escapeHtml(why)} <a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a></small></p>`,
    '</body></html>',
  ].join('\n');

  // List-Id wants a dot-atom label; ids are `mon_…` already, the filter is belt and braces.
  const listLabel = input.monitor.id.replace(/[^A-Za-z0-9_-]/g, '-');
  return {
    subject: `[IDS monitor] ${subjectName}: ${plural(input.totalMatched)}`,
    text: textLines.join('\n'),
    html,
    headers: {
      'List-Unsubscribe': `<${headerUrl(input.oneClickUrl)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': `<${listLabel}.monitors.ids>`,
      'Auto-Submitted': 'auto-generated',
    },
  };
}
