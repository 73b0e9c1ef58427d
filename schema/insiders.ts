// The Insiders family (Forms 3, 4 and 5): transactions of insiders, per-issuer summaries and
// whole filings, read from the ownership forms the ingest stores (resolvers/insiders.ts).
import {
  insiderFiling,
  insiderSummary,
  listTransactions,
  type FootnoteRef,
  type InsiderFiling,
  type InsiderHolding,
  type InsiderOwner,
  type InsiderSummary,
  type InsiderTransaction,
  type NullReason,
  type Provenance,
  type RoleSummary,
  type Flow,
} from '../resolvers/insiders.ts';
import { pageSize } from '../resolvers/ownership.ts';
import { builder } from './builder.ts';

const Owner = builder.objectRef<InsiderOwner>('InsiderOwner').implement({
  description: 'A reporting owner of a Form 3/4/5 and their relationship to the issuer, as the filing checks it.',
  fields: (t) => ({
    cik: t.exposeString('cik', { nullable: true, description: 'The owner\'s CIK, 10 digits' }),
    name: t.exposeString('name', { nullable: true, description: 'As filed, e.g. "Adams Katherine L."' }),
    isDirector: t.exposeBoolean('isDirector'),
    isOfficer: t.exposeBoolean('isOfficer'),
    officerTitle: t.exposeString('officerTitle', { nullable: true, description: 'As filed, e.g. "SVP, GC and Secretary"; null when not an officer or not stated' }),
    isTenPercentOwner: t.exposeBoolean('isTenPercentOwner'),
    isOther: t.exposeBoolean('isOther'),
    otherText: t.exposeString('otherText', { nullable: true, description: 'The relationship an "other" owner states' }),
    roles: t.exposeStringList('roles', { description: 'officer, director, ten_percent_owner, other: every box checked' }),
  }),
});

const Footnote = builder.objectRef<FootnoteRef>('InsiderFootnoteRef').implement({
  description: 'A footnote attached to one field of a row.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The field it annotates, e.g. pricePerShare, securityTitle, transactionCode' }),
    id: t.exposeString('id', { description: 'The footnote id in the filing, e.g. F2' }),
    text: t.exposeString('text', { nullable: true, description: 'Its text (null when the filing lacks the footnote it cites)' }),
  }),
});

const Reason = builder.objectRef<NullReason>('InsiderNullReason').implement({
  description: 'Why a field is null.',
  fields: (t) => ({ field: t.exposeString('field'), reason: t.exposeString('reason') }),
});

function provenanceFields(t: any) {
  return {
    accessionNumber: t.exposeString('accessionNumber', { nullable: true, description: 'The filing\'s accession number; null for a document ingested without its submission' }),
    formId: t.exposeString('formId', { description: 'The accession number, or `doc_…` for a document without one (what /v1/insiders/filings/{id} takes)' }),
    formType: t.exposeString('formType', { description: '3, 4, 5, 3/A, 4/A or 5/A' }),
    filedAt: t.expose('filedAt', { type: 'Date', nullable: true }),
    periodOfReport: t.expose('periodOfReport', { type: 'Date', nullable: true }),
    citationUrl: t.exposeString('citationUrl', { nullable: true, description: 'The SEC URL of the filing\'s document (its index page when the document is unknown)' }),
    isAmendment: t.exposeBoolean('isAmendment'),
    supersededBy: t.exposeString('supersededBy', { nullable: true, description: 'The amendment (accession) in force instead of this filing; null when this filing is in force' }),
  };
}

const Transaction = builder.objectRef<InsiderTransaction>('InsiderTransaction').implement({
  description: 'One row of a Form 4/5 transaction table (non-derivative or derivative), with its filing\'s owners and provenance.',
  fields: (t) => ({
    id: t.exposeString('id', { description: '`itx_<filing>_<n|d><row>`, stable' }),
    ...provenanceFields(t),
    table: t.exposeString('table', { description: 'non_derivative or derivative' }),
    sourceField: t.exposeString('sourceField', { description: 'Where in the document, e.g. nonDerivativeTable/nonDerivativeTransaction[3]' }),
    issuerCik: t.exposeString('issuerCik', { nullable: true }),
    issuerName: t.exposeString('issuerName', { nullable: true }),
    issuerTicker: t.exposeString('issuerTicker', { nullable: true, description: 'The trading symbol the filing states' }),
    owners: t.field({ type: [Owner], resolve: (r) => r.owners }),
    securityTitle: t.exposeString('securityTitle', { nullable: true }),
    transactionDate: t.expose('transactionDate', { type: 'Date', nullable: true }),
    deemedExecutionDate: t.expose('deemedExecutionDate', { type: 'Date', nullable: true }),
    transactionCode: t.exposeString('transactionCode', { nullable: true }),
    transactionCodeMeaning: t.exposeString('transactionCodeMeaning', { nullable: true }),
    equitySwapInvolved: t.exposeBoolean('equitySwapInvolved', { nullable: true }),
    timeliness: t.exposeString('timeliness', { nullable: true, description: 'early or late when the filing marks it' }),
    acquiredDisposed: t.exposeString('acquiredDisposed', { nullable: true, description: 'acquired or disposed' }),
    shares: t.exposeFloat('shares', { nullable: true }),
    pricePerShare: t.exposeFloat('pricePerShare', { nullable: true }),
    value: t.exposeFloat('value', { nullable: true, description: 'shares × pricePerShare in dollars, rounded to the cent' }),
    totalValue: t.exposeFloat('totalValue', { nullable: true, description: 'A dollar amount the filing states instead of shares' }),
    sharesOwnedFollowing: t.exposeFloat('sharesOwnedFollowing', { nullable: true }),
    valueOwnedFollowing: t.exposeFloat('valueOwnedFollowing', { nullable: true }),
    ownership: t.exposeString('ownership', { nullable: true, description: 'direct or indirect' }),
    natureOfOwnership: t.exposeString('natureOfOwnership', { nullable: true, description: 'For indirect ownership, e.g. "By Trust"' }),
    conversionOrExercisePrice: t.exposeFloat('conversionOrExercisePrice', { nullable: true }),
    exerciseDate: t.expose('exerciseDate', { type: 'Date', nullable: true }),
    expirationDate: t.expose('expirationDate', { type: 'Date', nullable: true }),
    underlyingSecurityTitle: t.exposeString('underlyingSecurityTitle', { nullable: true }),
    underlyingShares: t.exposeFloat('underlyingShares', { nullable: true }),
    underlyingValue: t.exposeFloat('underlyingValue', { nullable: true }),
    footnotes: t.field({ type: [Footnote], resolve: (r) => r.footnotes }),
    nullReasons: t.field({ type: [Reason], resolve: (r) => r.nullReasons }),
  }),
});

const Holding = builder.objectRef<InsiderHolding>('InsiderHolding').implement({
  description: 'A holding row of a Form 3/4/5 (securities held, no transaction).',
  fields: (t) => ({
    table: t.exposeString('table', { description: 'non_derivative or derivative' }),
    sourceField: t.exposeString('sourceField'),
    securityTitle: t.exposeString('securityTitle', { nullable: true }),
    sharesOwned: t.exposeFloat('sharesOwned', { nullable: true }),
    valueOwned: t.exposeFloat('valueOwned', { nullable: true }),
    ownership: t.exposeString('ownership', { nullable: true }),
    natureOfOwnership: t.exposeString('natureOfOwnership', { nullable: true }),
    conversionOrExercisePrice: t.exposeFloat('conversionOrExercisePrice', { nullable: true }),
    exerciseDate: t.expose('exerciseDate', { type: 'Date', nullable: true }),
    expirationDate: t.expose('expirationDate', { type: 'Date', nullable: true }),
    underlyingSecurityTitle: t.exposeString('underlyingSecurityTitle', { nullable: true }),
    underlyingShares: t.exposeFloat('underlyingShares', { nullable: true }),
    footnotes: t.field({ type: [Footnote], resolve: (r) => r.footnotes }),
  }),
});

const FilingFootnote = builder.objectRef<{ id: string; text: string }>('InsiderFilingFootnote').implement({
  fields: (t) => ({ id: t.exposeString('id'), text: t.exposeString('text') }),
});
const Signature = builder.objectRef<{ name: string | null; date: string | null }>('InsiderSignature').implement({
  fields: (t) => ({ name: t.exposeString('name', { nullable: true }), date: t.exposeString('date', { nullable: true }) }),
});

const Filing = builder.objectRef<InsiderFiling>('InsiderFiling').implement({
  description: 'One Form 3/4/5 filing: its owners, transactions, holdings and footnotes.',
  fields: (t) => ({
    ...provenanceFields(t),
    documentType: t.exposeString('documentType'),
    issuerCik: t.exposeString('issuerCik', { nullable: true }),
    issuerName: t.exposeString('issuerName', { nullable: true }),
    issuerTicker: t.exposeString('issuerTicker', { nullable: true }),
    dateOfOriginalSubmission: t.expose('dateOfOriginalSubmission', { type: 'Date', nullable: true }),
    supersedes: t.exposeStringList('supersedes', { description: 'The earlier filings this amendment supersedes' }),
    noSecuritiesOwned: t.exposeBoolean('noSecuritiesOwned', { nullable: true }),
    aff10b5One: t.exposeBoolean('aff10b5One', { nullable: true }),
    owners: t.field({ type: [Owner], resolve: (r) => r.owners }),
    transactions: t.field({ type: [Transaction], resolve: (r) => r.transactions }),
    holdings: t.field({ type: [Holding], resolve: (r) => r.holdings }),
    footnotes: t.field({ type: [FilingFootnote], resolve: (r) => r.footnotes }),
    remarks: t.exposeString('remarks', { nullable: true }),
    signatures: t.field({ type: [Signature], resolve: (r) => r.signatures }),
  }),
});

const FlowRef = builder.objectRef<Flow>('InsiderFlow').implement({
  description: 'Open-market purchases (code P) or sales (code S).',
  fields: (t) => ({
    transactions: t.exposeInt('transactions'),
    shares: t.exposeString('shares', { description: 'Exact decimal' }),
    value: t.exposeString('value', { description: 'Dollars, exact decimal, over priced transactions' }),
    unpricedTransactions: t.exposeInt('unpricedTransactions', { description: 'Transactions without a price, left out of value' }),
  }),
});

function summaryFields(t: any) {
  return {
    insiders: t.exposeInt('insiders', { description: 'Distinct reporting owners' }),
    bought: t.field({ type: FlowRef, resolve: (r: RoleSummary) => r.bought }),
    sold: t.field({ type: FlowRef, resolve: (r: RoleSummary) => r.sold }),
    netShares: t.exposeString('netShares', { description: 'bought.shares − sold.shares' }),
    netValue: t.exposeString('netValue', { description: 'bought.value − sold.value' }),
    otherAcquiredShares: t.exposeString('otherAcquiredShares', { description: 'Shares acquired by other codes (A grants, M exercises, G gifts, …)' }),
    otherDisposedShares: t.exposeString('otherDisposedShares', { description: 'Shares disposed by other codes (F tax withholding, G gifts, D, …)' }),
  };
}

const RoleSummaryRef = builder.objectRef<RoleSummary>('InsiderRoleSummary').implement({
  fields: (t) => ({ role: t.exposeString('role'), ...summaryFields(t) }),
});
const TotalRef = builder.objectRef<Omit<RoleSummary, 'role'>>('InsiderTotals').implement({ fields: (t) => summaryFields(t) });
const ProvenanceRef = builder.objectRef<Provenance>('InsiderSource').implement({ fields: (t) => provenanceFields(t) });

const Summary = builder.objectRef<InsiderSummary>('InsiderSummary').implement({
  description: 'Insider buying and selling of one issuer over a window of transaction dates, by role.',
  fields: (t) => ({
    cik: t.exposeString('cik'),
    from: t.exposeString('from', { nullable: true }),
    to: t.exposeString('to', { nullable: true }),
    filings: t.exposeInt('filings'),
    transactions: t.exposeInt('transactions'),
    total: t.field({ type: TotalRef, resolve: (s) => s.total }),
    roles: t.field({ type: [RoleSummaryRef], resolve: (s) => s.roles }),
    sources: t.field({ type: [ProvenanceRef], resolve: (s) => s.sources }),
  }),
});

builder.queryFields((t) => ({
  insiderTransactions: t.connection({
    type: Transaction,
    description: 'Form 3/4/5 transactions, newest filed first, then in filing order; superseded filings left out unless includeSuperseded.',
    args: {
      table: t.arg.string({ required: true, description: 'non_derivative or derivative' }),
      ticker: t.arg.string(),
      cik: t.arg.string({ description: 'Issuer CIK' }),
      ownerCik: t.arg.string({ description: 'Reporting owner CIK' }),
      codes: t.arg.stringList({ description: 'Transaction codes, e.g. ["P","S"]' }),
      acquiredDisposed: t.arg.string({ description: 'acquired or disposed' }),
      from: t.arg({ type: 'Date', description: 'Transaction date on or after' }),
      to: t.arg({ type: 'Date', description: 'Transaction date on or before' }),
      filedFrom: t.arg({ type: 'Date' }),
      filedTo: t.arg({ type: 'Date' }),
      includeSuperseded: t.arg.boolean({ defaultValue: false }),
    },
    resolve: async (_root, args, ctx) => {
      const page = await listTransactions(ctx, { ...args, table: args.table === 'derivative' ? 'derivative' : 'non_derivative' }, pageSize(args.first), args.after ?? null);
      return {
        edges: page.records.map(({ record, cursor }) => ({ cursor, node: record })),
        pageInfo: { hasNextPage: page.hasMore, hasPreviousPage: false, startCursor: page.records[0]?.cursor ?? null, endCursor: page.endCursor },
      };
    },
  }),
  insiderSummary: t.field({
    type: Summary,
    description: 'Net insider buying and selling of one issuer over transaction dates [from, to], by role.',
    args: { ticker: t.arg.string(), cik: t.arg.string(), from: t.arg({ type: 'Date' }), to: t.arg({ type: 'Date' }) },
    resolve: (_root, args, ctx) => insiderSummary(ctx, args),
  }),
  insiderFiling: t.field({
    type: Filing,
    nullable: true,
    description: 'One Form 3/4/5 by accession number (or `doc_…` id).',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => insiderFiling(ctx, args.id),
  }),
}));
