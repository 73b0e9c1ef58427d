// Offerings: registered offerings, Form D, Form C and Form 1-A in one normalized view
// (resolvers/offerings.ts).
import { requireDataAccess } from '../resolvers/access.ts';
import { getOffering, listOfferings, offeringTypes, type LinkedFiling, type NormalizedOfferingType, type Offering, type OfferingExemption } from '../resolvers/offerings.ts';
import { ApiError } from '../core/errors.ts';
import { builder } from './builder.ts';
import { companyFilter, maxPageSize } from './edgar.ts';

const Issuer = builder.objectRef<Offering['issuer']>('OfferingIssuer').implement({
  fields: (t) => ({
    cik: t.exposeString('cik', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    ticker: t.exposeString('ticker', { nullable: true, description: 'As printed on a prospectus cover' }),
    exchange: t.exposeString('exchange', { nullable: true }),
  }),
});

const Exemption = builder.objectRef<OfferingExemption>('OfferingExemption').implement({
  fields: (t) => ({ code: t.exposeString('code'), description: t.exposeString('description') }),
});

const Linked = builder.objectRef<LinkedFiling>('OfferingLinkedFiling').implement({
  fields: (t) => ({
    offeringId: t.exposeString('offeringId'),
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    formType: t.exposeString('formType'),
    filingRole: t.exposeString('filingRole'),
    date: t.exposeString('date', { nullable: true }),
    link: t.exposeString('link'),
  }),
});

export const OfferingRef = builder.objectRef<Offering>('Offering').implement({
  description: 'One offering filing (S-1/S-3/424B/POS AM, Form D, Form C, Form 1-A) in normalized fields.',
  fields: (t) => ({
    id: t.exposeString('id'),
    regime: t.exposeString('regime'),
    offeringType: t.exposeString('offeringType'),
    offeringTypeConfidence: t.exposeString('offeringTypeConfidence'),
    formType: t.exposeString('formType'),
    filingRole: t.exposeString('filingRole'),
    issuer: t.field({ type: Issuer, resolve: (o) => o.issuer }),
    securitiesOffered: t.exposeString('securitiesOffered', { nullable: true }),
    amountOffered: t.exposeFloat('amountOffered', { nullable: true }),
    amountOfferedField: t.exposeString('amountOfferedField', { nullable: true }),
    amountOfferedNullReason: t.exposeString('amountOfferedNullReason', { nullable: true }),
    targetAmount: t.exposeFloat('targetAmount', { nullable: true }),
    amountSold: t.exposeFloat('amountSold', { nullable: true }),
    amountSoldField: t.exposeString('amountSoldField', { nullable: true }),
    amountSoldNullReason: t.exposeString('amountSoldNullReason', { nullable: true }),
    amountRemaining: t.exposeFloat('amountRemaining', { nullable: true }),
    pricePerUnit: t.exposeFloat('pricePerUnit', { nullable: true }),
    pricePerUnitNullReason: t.exposeString('pricePerUnitNullReason', { nullable: true }),
    unitsOffered: t.exposeFloat('unitsOffered', { nullable: true }),
    currency: t.exposeString('currency'),
    exemptions: t.field({ type: [Exemption], resolve: (o) => o.exemptions }),
    date: t.exposeString('date', { nullable: true }),
    dateField: t.exposeString('dateField'),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    dateOfFirstSale: t.exposeString('dateOfFirstSale', { nullable: true }),
    deadline: t.exposeString('deadline', { nullable: true }),
    isAmendment: t.exposeBoolean('isAmendment'),
    isPreliminary: t.exposeBoolean('isPreliminary', { nullable: true }),
    status: t.exposeString('status', { nullable: true, description: 'A registered offering\'s document: preliminary (its blanks unknown) or final; null for Forms D and C' }),
    unknownTerms: t.exposeStringList('unknownTerms', { description: 'The fields a preliminary document leaves blank: unknown until the final prospectus' }),
    registrationFileNumber: t.exposeString('registrationFileNumber', { nullable: true }),
    fileNumber: t.exposeString('fileNumber', { nullable: true }),
    previousAccessionNumber: t.exposeString('previousAccessionNumber', { nullable: true }),
    intermediaries: t.exposeStringList('intermediaries'),
    linkedFilings: t.field({ type: [Linked], resolve: (o) => o.linkedFilings }),
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    citationUrl: t.exposeString('citationUrl', { nullable: true }),
    citationNullReason: t.exposeString('citationNullReason', { nullable: true }),
    sourceDocument: t.exposeString('sourceDocument'),
    details: t.field({ type: 'JSON', resolve: (o) => o.details }),
    // JSON, as details: each figure is one object of a fixed shape (documented on GET /v1/offerings),
    // and a typed selection of twenty of them per row would price a page of offerings past the cost limit
    capitalization: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'A registered offering\'s capitalization as its document states it: sharesOutstandingBefore, sharesOutstandingAfter, sharesOutstandingAfterOverAllotment, optionsOutstanding, warrantsOutstanding, restrictedStockUnits, performanceStockUnits, reservedForFutureIssuance, preferredAsConverted; each {value, reason, asOf, approximate, sourceSpan, section, page, confidence, method}, value null with the reason where the document states none. Null for Forms D and C.',
      resolve: (o) => o.capitalization,
    }),
    economics: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'A registered offering\'s economics as its document states them: offeringDate, closingDate, feeType, feeAmount, feePerShare, feePercent, proceedsBeforeExpenses, netProceeds, overAllotmentShares, babyShelfSalesPrior12Months, registrationEffective; each figure as in capitalization. Null for Forms D and C.',
      resolve: (o) => o.economics,
    }),
  }),
});

const OfferingPage = builder.objectRef<{ nodes: Offering[]; hasMore: boolean; nextCursor: string | null }>('OfferingPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [OfferingRef], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  offerings: t.field({
    type: OfferingPage,
    description: 'Offerings across registered (S-1/S-3/424B/POS AM), Regulation D (Form D), Regulation Crowdfunding (Form C) and Regulation A (1-A), newest first.',
    args: {
      ticker: t.arg.string(),
      cik: t.arg.string(),
      type: t.arg.string({ description: `One of ${offeringTypes.join(', ')}` }),
      from: t.arg({ type: 'Date' }),
      to: t.arg({ type: 'Date' }),
      first: t.arg.int({ defaultValue: 25 }),
      after: t.arg.string(),
    },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      const first = Math.min(Math.max(args.first ?? 25, 1), maxPageSize);
      if (args.type && !(offeringTypes as readonly string[]).includes(args.type)) throw new ApiError('invalid_query_parameter', `type must be one of ${offeringTypes.join(', ')}.`, { details: { parameter: 'type', acceptedValues: [...offeringTypes] } });
      const type = (args.type as NormalizedOfferingType | null | undefined) ?? null;
      return listOfferings(ctx, { ciks: company.cik?.in ?? null, type, from: args.from, to: args.to }, { first, after: args.after });
    },
  }),
  offering: t.field({
    type: OfferingRef,
    nullable: true,
    args: { id: t.arg.string({ required: true, description: 'Accession number, or `doc_…` id' }) },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return getOffering(ctx, args.id);
    },
  }),
}));
