// Item 4.01: the audit firm that left (and how), and the one engaged in its place. Firms are
// recognised by their legal suffix ("Marcum LLP", "BDO USA, P.C."), which every firm name carries.
import type { Confidence } from './types.ts';
import { sentences, spanOf, type SourceSpan } from './text.ts';

type AuditorChangeKind = 'dismissed' | 'resigned' | 'declined' | 'engaged' | 'other';

// capitalised words (an ampersand may join them) ending in the legal suffix
const firm = String.raw`((?:[A-Z][A-Za-z&.'’+-]*,?\s(?:&\s)?){1,6}?(?:LLP|L\.L\.P\.|LLC|L\.L\.C\.|P\.C\.|PC|PLLC|P\.A\.|CPAs?|Ltd\.?|Limited|& Co\.|& Company))(?![A-Za-z])`;
const asFirm = String.raw`(?:(?:its|the Company['’]s|our|the Registrant['’]s)\s+(?:former\s+|new\s+)?independent (?:registered public accounting firm|auditors?|accountants?),?\s+)?`;

const patterns: { kind: AuditorChangeKind | 'new'; pattern: RegExp }[] = [
  { kind: 'dismissed', pattern: new RegExp(String.raw`dismiss(?:ed|al of)\s+${asFirm}${firm}`) },
  { kind: 'dismissed', pattern: new RegExp(String.raw`${firm}[^.]{0,80}?\bwas dismissed`) },
  { kind: 'resigned', pattern: new RegExp(String.raw`resignation of\s+${asFirm}${firm}`) },
  { kind: 'resigned', pattern: new RegExp(String.raw`${firm}[^.]{0,160}?\b(?:resigned|(?:its|the) (?:decision to )?resign)`) },
  { kind: 'declined', pattern: new RegExp(String.raw`${firm}[^.]{0,160}?\b(?:declined|decided not) to stand for re-?(?:election|appointment)`) },
  { kind: 'new', pattern: new RegExp(String.raw`(?:engag(?:ed|ement of)|appoint(?:ed|ment of)|retain(?:ed)?|retention of)\s+${asFirm}${firm}`) },
];

export function parseAuditorChange(body: string): { formerAuditor: string | null; newAuditor: string | null; change: AuditorChangeKind; confidence: Confidence } & SourceSpan {
  const text = body.replace(/\s+/g, ' ');
  let formerAuditor: string | null = null;
  let newAuditor: string | null = null;
  let change: AuditorChangeKind | null = null;
  for (const { kind, pattern } of patterns) {
    const name = text.match(pattern)?.[1]?.trim() ?? null;
    if (!name) continue;
    if (kind === 'new') newAuditor ??= name === formerAuditor ? null : name;
    else if (!formerAuditor) {
      formerAuditor = name;
      change = kind;
    }
  }
  const confidence: Confidence = formerAuditor && newAuditor ? 'high' : formerAuditor || newAuditor ? 'medium' : 'low';
  // the sentence that names the firm that left (else the one engaged)
  const named = (firmName: string | null) => (firmName ? sentences(body).find((s) => s.replace(/\s+/g, ' ').includes(firmName)) : undefined);
  const sentence = named(formerAuditor) ?? named(newAuditor);
  return { formerAuditor, newAuditor, change: change ?? (newAuditor ? 'engaged' : 'other'), confidence, ...spanOf(sentence, 'no sentence of the item names an audit firm') };
}
