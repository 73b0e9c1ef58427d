// What kind of offering a filing makes, from the wording of its cover: the first rule that fits
// decides, and the sentence it fit on is kept so a reader can check the call.

export type Confidence = 'high' | 'medium' | 'low';
/**
 * `registered_direct`: a sale off an effective registration that a placement agent arranges with
 * investors it names ("We are offering directly to …", "… a securities purchase agreement with each
 * investor"); `follow_on` is any other priced or best-efforts sale off one.
 */
export type OfferingType = 'ipo' | 'follow_on' | 'registered_direct' | 'shelf' | 'atm' | 'resale' | 'deregistration' | 'other';

export interface OfferingClassification {
  offeringType: OfferingType;
  confidence: Confidence;
  excerpt: string;
}

interface CoverSignals {
  formType: string;
  cover: string;
  isShelf: boolean;
  isListed: boolean;
  hasPrice: boolean;
  /** the cover names a placement agent (best efforts; it buys nothing) */
  hasPlacementAgent?: boolean;
}

const sentenceAround = (text: string, pattern: RegExp): string | null => {
  const match = pattern.exec(text);
  if (!match) return null;
  const start = Math.max(text.lastIndexOf('.', match.index) + 1, text.lastIndexOf('\n', match.index) + 1);
  const endDot = text.indexOf('. ', match.index + match[0].length);
  const endLine = text.indexOf('\n', match.index + match[0].length);
  const ends = [endDot >= 0 ? endDot + 1 : text.length, endLine >= 0 ? endLine : text.length];
  const sentence = text.slice(start, Math.min(...ends)).replace(/\s+/g, ' ').trim();
  return sentence.length > 400 ? `${sentence.slice(0, 400).replace(/\s\S*$/, '')} …` : sentence;
};

/** A placement agent's sale to investors it arranged: the cover says so, or names the purchase agreement. */
export const registeredDirect = /\bregistered direct\b|\boffering directly to\b|\bsecurities purchase agreement\b/i;

const registrationForm = /^(S-1|S-3|F-1|F-3|S-11)(\/A)?$/i;

export function classifyOffering({ formType, cover, isShelf, isListed, hasPrice, hasPlacementAgent = false }: CoverSignals): OfferingClassification {
  const noMarketYet = /\bthere has been no public market\b|\bno (?:established )?public market (?:currently )?exists\b/i.test(cover);
  const rules: { type: OfferingType; pattern: RegExp; confidence: Confidence; when?: boolean }[] = [
    { type: 'deregistration', pattern: /\bderegist(?:er|ration)\b[^.]*\b(?:unsold|securities)\b/i, confidence: 'high', when: /^POS AM|^S-\d+POS|^POS/i.test(formType) },
    { type: 'deregistration', pattern: /\bderegist(?:er|ration)\b/i, confidence: 'medium', when: /^POS/i.test(formType) },
    { type: 'resale', pattern: /\bwe are registering the resale\b/i, confidence: 'high' },
    { type: 'resale', pattern: /\bselling (?:stock|share|security|unit)holders?\b[^.]*?\b(?:may|will|is|are)(?: from time to time)? (?:offer|resell|sell)/i, confidence: 'high' },
    { type: 'atm', pattern: /\bat[- ]the[- ]market offerings?\b|\bAt-The-Market\b/i, confidence: 'high' },
    { type: 'atm', pattern: /\b(?:sales agreement|equity distribution agreement)\b/i, confidence: 'medium' },
    // "since our initial public offering in 2021" on a later prospectus is not one
    { type: 'ipo', pattern: /\bthis is (?:an|our) initial public offering\b|\bin (?:this|our) initial public offering\b/i, confidence: noMarketYet ? 'high' : 'medium' },
    { type: 'ipo', pattern: /\bthere has been no public market\b|\bno (?:established )?public market (?:currently )?exists\b/i, confidence: 'medium' },
    // the same wording the dilution terms read (dilutionTerms.ts), so the offering and its terms name one type
    { type: 'registered_direct', pattern: registeredDirect, confidence: 'high', when: hasPlacementAgent },
    { type: 'follow_on', pattern: /\bwe are (?:offering|selling)\b/i, confidence: isListed ? 'high' : 'medium' },
    { type: 'shelf', pattern: /\bwe may,? from time to time,? offer\b/i, confidence: 'high', when: isShelf && registrationForm.test(formType) },
    { type: 'shelf', pattern: /\bfrom time to time\b/i, confidence: 'high', when: isShelf && registrationForm.test(formType) },
    { type: 'shelf', pattern: /\bRule 415\b/i, confidence: 'medium', when: isShelf },
    { type: 'follow_on', pattern: /\boffering\b/i, confidence: 'low', when: /^424B/i.test(formType) && hasPrice },
  ];
  for (const rule of rules) {
    if (rule.when === false) continue;
    const excerpt = sentenceAround(cover, new RegExp(rule.pattern.source, rule.pattern.flags.replace('g', '')));
    if (excerpt) return { offeringType: rule.type, confidence: rule.confidence, excerpt };
  }
  return { offeringType: 'other', confidence: 'low', excerpt: cover.replace(/\s+/g, ' ').trim().slice(0, 300) };
}
