// Fund letters: the shareholder letters of the N-CSR and N-CSRS reports fetched from the SEC.
import { requireDataAccess } from '../resolvers/access.ts';
import { fundLetter, fundLetters, type FundLetter, type FundLetterMatch, type FundLetterPage, type FundLetterSection } from '../resolvers/fundLetters.ts';
import type { LetterSigner } from '../ingest/parsers/funds/shareholderLetter.ts';
import { builder } from './builder.ts';
import { cited } from './ownership.ts';

const Section = builder.objectRef<FundLetterSection>('FundLetterSection').implement({
  description: 'A part of a fund report\'s letter, as a filing section (key `letter`, `letter_1`…).',
  fields: (t) => ({
    key: t.exposeString('key'),
    kind: t.exposeString('kind', { description: '`letter` (a letter to shareholders) or `performance_discussion` (management\'s discussion of fund performance)' }),
    title: t.exposeString('title', { description: 'The heading as the report states it' }),
    ordinal: t.exposeInt('ordinal'),
    charCount: t.exposeInt('charCount'),
    text: t.exposeString('text', { nullable: true, description: 'The section\'s text; only on the single letter\'s read' }),
  }),
});

const Signer = builder.objectRef<LetterSigner>('FundLetterSigner').implement({
  fields: (t) => ({ name: t.exposeString('name'), title: t.exposeString('title', { nullable: true }) }),
});

const Match = builder.objectRef<FundLetterMatch>('FundLetterMatch').implement({
  description: 'The letter section that best matches a full-text query, with a highlighted snippet.',
  fields: (t) => ({
    sectionKey: t.exposeString('sectionKey'),
    sectionTitle: t.exposeString('sectionTitle'),
    snippet: t.exposeString('snippet', { description: 'Matching words wrapped in <mark>…</mark>' }),
    rank: t.exposeFloat('rank'),
    phraseMatch: t.exposeBoolean('phraseMatch'),
  }),
});

const Letter = builder.objectRef<FundLetter>('FundLetter').implement({
  description: 'The shareholder letter of a fund\'s N-CSR (annual) or N-CSRS (semi-annual) report, citing the filing.',
  fields: (t) => ({
    ...cited(t),
    id: t.exposeString('id', { description: 'The report\'s accession number' }),
    form: t.exposeString('form'),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    reportKind: t.exposeString('reportKind', { description: 'annual (N-CSR) or semi_annual (N-CSRS)' }),
    periodEnd: t.exposeString('periodEnd', { nullable: true }),
    periodEndNullReason: t.exposeString('periodEndNullReason', { nullable: true }),
    registrantCik: t.exposeString('registrantCik'),
    registrantName: t.exposeString('registrantName', { nullable: true }),
    fundNames: t.exposeStringList('fundNames', { description: 'The funds (series) the report names, where it names them (a tailored report names each)' }),
    shape: t.exposeString('shape', { description: 'full_report (a letter and discussion before the financial statements) or tailored_shareholder_report (the SEC\'s shape from July 2024: no letter)' }),
    letterNullReason: t.exposeString('letterNullReason', { nullable: true, description: 'Why the report has no letter section, when it has none' }),
    signers: t.field({ type: [Signer], resolve: (l) => l.signers }),
    signersNullReason: t.exposeString('signersNullReason', { nullable: true }),
    sections: t.field({ type: [Section], resolve: (l) => l.sections }),
    match: t.field({ type: Match, nullable: true, resolve: (l) => l.match }),
  }),
});

const Page = builder.objectRef<FundLetterPage>('FundLetterPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [Letter], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
    resolution: t.exposeString('resolution', { description: 'covered, or not_covered when no fund report of what was asked is held' }),
    notCoveredReason: t.exposeString('notCoveredReason', { nullable: true, description: 'Why nothing is covered, and how an operator fetches fund reports' }),
  }),
});

builder.queryFields((t) => ({
  fundLetters: t.field({
    type: Page,
    description: 'Shareholder letters of the N-CSR/N-CSRS reports held, newest first, or by relevance to `q`.',
    args: { cik: t.arg.string(), ticker: t.arg.string(), form: t.arg.string(), filedFrom: t.arg({ type: 'Date' }), filedTo: t.arg({ type: 'Date' }), q: t.arg.string(), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return fundLetters(ctx, args);
    },
  }),
  fundLetter: t.field({
    type: Letter,
    description: 'One fund report\'s letter, its sections with their text.',
    args: { accessionNumber: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return fundLetter(ctx, args.accessionNumber);
    },
  }),
}));
