// Ownership: a manager's Form 13F reports and holdings, an issuer's Schedule 13D/G beneficial owners.
import { requireDataAccess } from '../resolvers/access.ts';
import {
  amendmentRule,
  beneficialOwners,
  institutionalHolders,
  supersessionRule,
  thirteenFFilings,
  thirteenFHoldings,
  valueUnitRule,
  type BeneficialOwner,
  type InstitutionalHolder,
  type ThirteenFFiling,
  type ThirteenFHolding,
  type ThirteenFReport,
} from '../resolvers/ownership.ts';
import { builder } from './builder.ts';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The provenance fields every row carries. */
export function cited<T extends { accessionNumber: string | null; citationUrl: string | null; citationNullReason: string | null }>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) {
  return {
    accessionNumber: t.string({ nullable: true, resolve: (r) => r.accessionNumber }),
    citationUrl: t.string({ nullable: true, description: 'The SEC URL of the filing', resolve: (r) => r.citationUrl }),
    citationNullReason: t.string({ nullable: true, description: 'Why citationUrl is null', resolve: (r) => r.citationNullReason }),
  };
}

const Filing13f = builder.objectRef<ThirteenFFiling>('Ownership13fFiling').implement({
  description: 'One Form 13F report of an institutional investment manager.',
  fields: (t) => ({
    ...cited(t),
    id: t.exposeString('id'),
    formType: t.exposeString('formType'),
    managerCik: t.exposeString('managerCik', { nullable: true }),
    managerName: t.exposeString('managerName', { nullable: true }),
    periodOfReport: t.exposeString('periodOfReport', { nullable: true }),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    signedAt: t.exposeString('signedAt', { nullable: true }),
    reportType: t.exposeString('reportType', { nullable: true }),
    isAmendment: t.exposeBoolean('isAmendment'),
    amendmentNumber: t.exposeFloat('amendmentNumber', { nullable: true }),
    amendmentType: t.exposeString('amendmentType', { nullable: true }),
    holdingsCount: t.exposeFloat('holdingsCount', { nullable: true }),
    holdingsNullReason: t.exposeString('holdingsNullReason', { nullable: true }),
    tableEntryTotal: t.exposeFloat('tableEntryTotal', { nullable: true }),
    totalValueUsd: t.exposeFloat('totalValueUsd', { nullable: true }),
    totalValueAsReported: t.exposeFloat('totalValueAsReported', { nullable: true }),
    valueUnit: t.exposeString('valueUnit', { nullable: true }),
    valueReportedInThousands: t.exposeBoolean('valueReportedInThousands', { nullable: true }),
    valueUnitReason: t.exposeString('valueUnitReason', { nullable: true }),
    otherManagers: t.expose('otherManagers', { type: 'JSON' }),
  }),
});

const Holding13f = builder.objectRef<ThirteenFHolding>('Ownership13fHolding').implement({
  description: 'One row of a Form 13F information table.',
  fields: (t) => ({
    ...cited(t),
    id: t.exposeString('id'),
    position: t.exposeInt('position'),
    sourceField: t.exposeString('sourceField'),
    formType: t.exposeString('formType'),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    period: t.exposeString('period', { nullable: true }),
    issuerName: t.exposeString('issuerName', { nullable: true }),
    classTitle: t.exposeString('classTitle', { nullable: true }),
    cusip: t.exposeString('cusip', { nullable: true }),
    figi: t.exposeString('figi', { nullable: true }),
    valueUsd: t.exposeFloat('valueUsd', { nullable: true }),
    valueAsReported: t.exposeFloat('valueAsReported', { nullable: true }),
    valueReportedInThousands: t.exposeBoolean('valueReportedInThousands', { nullable: true }),
    sharesOrPrincipalAmount: t.exposeFloat('sharesOrPrincipalAmount', { nullable: true }),
    sharesOrPrincipalType: t.exposeString('sharesOrPrincipalType', { nullable: true }),
    putCall: t.exposeString('putCall', { nullable: true }),
    investmentDiscretion: t.exposeString('investmentDiscretion', { nullable: true }),
    otherManagers: t.exposeString('otherManagers', { nullable: true }),
    votingSole: t.exposeFloat('votingSole', { nullable: true }),
    votingShared: t.exposeFloat('votingShared', { nullable: true }),
    votingNone: t.exposeFloat('votingNone', { nullable: true }),
  }),
});

const Report13f = builder.objectRef<ThirteenFReport>('Ownership13fReport').implement({
  description: 'The report a period\'s holdings come from, and how they were assembled.',
  fields: (t) => ({
    managerCik: t.exposeString('managerCik'),
    managerName: t.exposeString('managerName', { nullable: true }),
    period: t.exposeString('period', { nullable: true }),
    filings: t.expose('filings', { type: 'JSON', description: '[{accessionNumber, formType, filedAt, amendmentType, role, citationUrl, citationNullReason}]' }),
    holdingsCount: t.exposeInt('holdingsCount'),
    totalValueUsd: t.exposeFloat('totalValueUsd', { nullable: true }),
    tableValueTotalUsd: t.exposeFloat('tableValueTotalUsd', { nullable: true }),
    valueUnit: t.exposeString('valueUnit', { nullable: true }),
    valueReportedInThousands: t.exposeBoolean('valueReportedInThousands', { nullable: true }),
    valueUnitReason: t.exposeString('valueUnitReason', { nullable: true }),
    valueUnitRule: t.string({ resolve: () => valueUnitRule }),
    amendmentRule: t.string({ resolve: () => amendmentRule }),
    holdingsNullReason: t.exposeString('holdingsNullReason', { nullable: true }),
    periodsAvailable: t.exposeStringList('periodsAvailable'),
  }),
});

const FilingPage = builder.objectRef<Awaited<ReturnType<typeof thirteenFFilings>>>('Ownership13fFilingPage').implement({
  fields: (t) => ({
    managerCik: t.exposeString('managerCik'),
    valueUnitRule: t.string({ resolve: () => valueUnitRule }),
    nodes: t.field({ type: [Filing13f], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

const HoldingPage = builder.objectRef<Awaited<ReturnType<typeof thirteenFHoldings>>>('Ownership13fHoldingPage').implement({
  fields: (t) => ({
    report: t.field({ type: Report13f, resolve: (p) => p.report }),
    nodes: t.field({ type: [Holding13f], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

const Owner = builder.objectRef<BeneficialOwner>('BeneficialOwner').implement({
  description: 'A reporting person\'s current Schedule 13D/G position in an issuer, with the statements it superseded.',
  fields: (t) => ({
    ...cited(t),
    id: t.exposeString('id'),
    ownerName: t.exposeString('ownerName'),
    ownerCik: t.exposeString('ownerCik', { nullable: true }),
    issuerCik: t.exposeString('issuerCik', { nullable: true }),
    issuerName: t.exposeString('issuerName'),
    issuerCusip: t.exposeString('issuerCusip', { nullable: true }),
    securitiesClass: t.exposeString('securitiesClass', { nullable: true }),
    schedule: t.exposeString('schedule'),
    formType: t.exposeString('formType'),
    isAmendment: t.exposeBoolean('isAmendment'),
    amendmentNumber: t.exposeFloat('amendmentNumber', { nullable: true }),
    eventDate: t.exposeString('eventDate', { nullable: true }),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    sourceField: t.exposeString('sourceField'),
    percentOfClass: t.exposeFloat('percentOfClass', { nullable: true }),
    aggregateAmountOwned: t.exposeFloat('aggregateAmountOwned', { nullable: true }),
    aggregateExcludesCertainShares: t.exposeBoolean('aggregateExcludesCertainShares', { nullable: true }),
    soleVotingPower: t.exposeFloat('soleVotingPower', { nullable: true }),
    sharedVotingPower: t.exposeFloat('sharedVotingPower', { nullable: true }),
    soleDispositivePower: t.exposeFloat('soleDispositivePower', { nullable: true }),
    sharedDispositivePower: t.exposeFloat('sharedDispositivePower', { nullable: true }),
    memberOfGroup: t.exposeString('memberOfGroup', { nullable: true }),
    citizenshipOrOrganization: t.exposeString('citizenshipOrOrganization', { nullable: true }),
    typeOfReportingPerson: t.exposeStringList('typeOfReportingPerson'),
    sourceOfFunds: t.exposeStringList('sourceOfFunds'),
    comment: t.exposeString('comment', { nullable: true }),
    purpose: t.exposeString('purpose', { nullable: true }),
    purposeNullReason: t.exposeString('purposeNullReason', { nullable: true }),
    item4: t.expose('item4', { type: 'JSON', nullable: true }),
    rulesDesignated: t.exposeStringList('rulesDesignated'),
    filerCik: t.exposeString('filerCik', { nullable: true }),
    coReportingPersons: t.exposeStringList('coReportingPersons'),
    amendments: t.expose('amendments', { type: 'JSON' }),
  }),
});

const OwnerPage = builder.objectRef<Awaited<ReturnType<typeof beneficialOwners>>>('BeneficialOwnerPage').implement({
  fields: (t) => ({
    issuerCik: t.exposeString('issuerCik'),
    supersessionRule: t.string({ resolve: () => supersessionRule }),
    nodes: t.field({ type: [Owner], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

const Holder = builder.objectRef<InstitutionalHolder>('InstitutionalHolder').implement({
  description: 'One row of an institutional manager\'s Form 13F information table that lists the company\'s securities.',
  fields: (t) => ({
    ...cited(t),
    id: t.exposeString('id', { description: '`<filing id>#<row>`, as in ownership13fHoldings' }),
    managerCik: t.exposeString('managerCik', { nullable: true }),
    managerName: t.exposeString('managerName', { nullable: true }),
    period: t.exposeString('period', { nullable: true, description: 'The quarter end reported, YYYY-MM-DD' }),
    formType: t.exposeString('formType'),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    sourceField: t.exposeString('sourceField', { description: 'The information table row, e.g. informationTable/infoTable[3]' }),
    issuerName: t.exposeString('issuerName', { nullable: true, description: 'Name of issuer, as filed' }),
    classTitle: t.exposeString('classTitle', { nullable: true }),
    cusip: t.exposeString('cusip', { nullable: true }),
    valueUsd: t.exposeFloat('valueUsd', { nullable: true, description: 'Market value in whole US dollars' }),
    sharesOrPrincipalAmount: t.exposeFloat('sharesOrPrincipalAmount', { nullable: true }),
    sharesOrPrincipalType: t.exposeString('sharesOrPrincipalType', { nullable: true, description: 'SH (shares) or PRN (principal amount)' }),
    putCall: t.exposeString('putCall', { nullable: true }),
    matchedBy: t.exposeString('matchedBy', { description: 'cusip or name: how the row was matched to the company (matchRule)' }),
  }),
});

const HolderPage = builder.objectRef<Awaited<ReturnType<typeof institutionalHolders>>>('InstitutionalHolderPage').implement({
  fields: (t) => ({
    issuerCik: t.exposeString('issuerCik'),
    issuerCusips: t.exposeStringList('issuerCusips', { description: 'The CUSIPs the company\'s Schedules 13D/G state; empty when none is held (rows are then matched by name)' }),
    matchRule: t.exposeString('matchRule'),
    managersRead: t.exposeInt('managersRead', { description: 'Managers whose latest 13F period was read' }),
    nodes: t.field({ type: [Holder], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  ownership13fFilings: t.field({
    type: FilingPage,
    description: 'A manager\'s Form 13F reports, newest filed first.',
    args: { managerCik: t.arg.string({ required: true }), filedFrom: t.arg({ type: 'Date' }), filedTo: t.arg({ type: 'Date' }), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return thirteenFFilings(ctx, args);
    },
  }),
  ownership13fHoldings: t.field({
    type: HoldingPage,
    description: 'A manager\'s 13F holdings for a period (the latest period held by default), in information-table order.',
    args: { managerCik: t.arg.string({ required: true }), period: t.arg({ type: 'Date' }), cusip: t.arg.string(), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return thirteenFHoldings(ctx, args);
    },
  }),
  beneficialOwners: t.field({
    type: OwnerPage,
    description: 'An issuer\'s Schedule 13D/G beneficial owners: each reporting person\'s current position, largest first.',
    args: { ticker: t.arg.string(), cik: t.arg.string(), schedule: t.arg.string({ description: '13D or 13G' }), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return beneficialOwners(ctx, args);
    },
  }),
  institutionalHolders: t.field({
    type: HolderPage,
    description: 'The company\'s institutional holders: the rows of held Form 13F information tables that list its securities, each manager\'s latest period, largest value first.',
    args: { ticker: t.arg.string(), cik: t.arg.string(), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return institutionalHolders(ctx, args);
    },
  }),
}));
