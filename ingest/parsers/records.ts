// What parsers hand to the loader. Parsers are pure: a file's text (and its name) in, records
// out, no database and no network. Values are exactly as filed: numbers are parsed from their
// text without arithmetic that could round them; dates are YYYY-MM-DD; absent means null,
// never 0 or ''.

/** A party a record names, so that entities can be created and linked. CIK is 10 digits. */
export interface PartyRef {
  cik: string | null;
  name: string | null;
  role: 'issuer' | 'filer' | 'reporting_owner' | 'manager' | 'fund' | 'adviser' | 'related_person' | 'subject' | 'auditor' | 'underwriter' | 'other';
}

/**
 * A structured form (D, 144, C family, 13F, 3/4/5, 13D/G, N-CEN, N-PORT, N-PX). `data` is the
 * form-specific record described by the parser's own exported type; it is stored as JSON and
 * served as is, so keep it flat enough to read and free of parser internals.
 */
export interface ParsedForm<T = Record<string, unknown>> {
  /** our family key: 'D', '144', 'C', '13F', 'OWNERSHIP', '13DG', 'NCEN', 'NPORT', 'NPX' */
  family: string;
  /** the form type as filed: 'D', 'D/A', 'C-U', '144/A', '13F-HR', '4', 'SC 13G', ... */
  formType: string;
  /** null when the document does not carry it (the loader then takes it from the container or file name) */
  accessionNumber: string | null;
  filedAt: string | null;
  periodOfReport: string | null;
  parties: PartyRef[];
  /** true for the SEC's published technical-specification samples (fictitious data) */
  isSample: boolean;
  data: T;
}
