// Advisers: investment advisers and managers as Form 13F and N-CEN name them.
import { requireDataAccess } from '../resolvers/access.ts';
import { adviser, advisers, type AdviserSummary } from '../resolvers/advisers.ts';
import { builder } from './builder.ts';

/** The fields a list row and a profile share. */
function summaryFields(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never, AdviserSummary>) {
  return {
    id: t.exposeString('id', { nullable: true, description: 'The CIK (10 digits) when a held filing gives one, else `crd-<CRD>`; null when the filings give neither' }),
    profilePath: t.exposeString('profilePath', { nullable: true }),
    profilePathNullReason: t.exposeString('profilePathNullReason', { nullable: true }),
    cik: t.exposeString('cik', { nullable: true }),
    cikNullReason: t.exposeString('cikNullReason', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    otherNames: t.exposeStringList('otherNames', { description: 'Other spellings the filings use' }),
    crd: t.exposeString('crd', { nullable: true, description: 'CRD number as filed' }),
    crdNullReason: t.exposeString('crdNullReason', { nullable: true }),
    secFileNumber: t.exposeString('secFileNumber', { nullable: true, description: 'SEC file number (801- for a registered adviser)' }),
    secFileNumberNullReason: t.exposeString('secFileNumberNullReason', { nullable: true }),
    form13FFileNumber: t.exposeString('form13FFileNumber', { nullable: true, description: 'Form 13F file number (028-)' }),
    lei: t.exposeString('lei', { nullable: true }),
    leiNullReason: t.exposeString('leiNullReason', { nullable: true }),
    roles: t.exposeStringList('roles', { description: '13f_filer, 13f_other_manager, investment_adviser, sub_adviser' }),
    source: t.expose('source', { type: 'JSON', description: 'The newest filing naming the adviser (accession, form, filing date, SEC URL, section), where its name and identifiers were read' }),
    filingsNamingCount: t.exposeInt('filingsNamingCount'),
    fundsAdvisedCount: t.exposeInt('fundsAdvisedCount'),
    fundsSubAdvisedCount: t.exposeInt('fundsSubAdvisedCount'),
    latest13f: t.expose('latest13f', { type: 'JSON', nullable: true, description: 'The latest quarter of its own Form 13F: period, positions, total value in dollars, the filing cited' }),
    latest13fNullReason: t.exposeString('latest13fNullReason', { nullable: true }),
  };
}

const AdviserRef = builder.objectRef<AdviserSummary>('Adviser').implement({
  description: 'An investment adviser or institutional manager as the held Form 13F and N-CEN filings name it.',
  fields: (t) => summaryFields(t),
});

const AdviserPage = builder.objectRef<Awaited<ReturnType<typeof advisers>>>('AdviserPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [AdviserRef], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

const AdviserProfileRef = builder.objectRef<Awaited<ReturnType<typeof adviser>>>('AdviserProfile').implement({
  description: 'An adviser with every filing naming it, the funds it advises per N-CEN, and its Form 13F quarters.',
  fields: (t) => ({
    ...summaryFields(t as never),
    mentions: t.expose('mentions', { type: 'JSON', description: 'Every held filing naming the adviser, newest first, with what it states of it' }),
    fundsAdvised: t.expose('fundsAdvised', { type: 'JSON', description: 'Fund series it advises or sub-advises, per their registrants\' latest N-CEN, each citing it' }),
    quarters: t.expose('quarters', { type: 'JSON', description: 'Its Form 13F quarters, newest first: positions, total value in dollars, top holdings, the filings cited' }),
    quartersNullReason: t.exposeString('quartersNullReason', { nullable: true }),
    periodsAvailable: t.exposeStringList('periodsAvailable'),
  }),
});

builder.queryFields((t) => ({
  advisers: t.field({
    type: AdviserPage,
    description: 'Investment advisers and managers the held Form 13F and N-CEN filings name, by name.',
    args: { q: t.arg.string(), has13f: t.arg.boolean(), role: t.arg.string(), crd: t.arg.string(), secFileNumber: t.arg.string(), lei: t.arg.string(), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return advisers(ctx, args);
    },
  }),
  adviser: t.field({
    type: AdviserProfileRef,
    description: 'One adviser by CIK, or by CRD for one the filings name without a CIK.',
    args: { cik: t.arg.string(), crd: t.arg.string(), periods: t.arg.int({ defaultValue: 4 }), top: t.arg.int({ defaultValue: 10 }) },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return adviser(ctx, args);
    },
  }),
}));
