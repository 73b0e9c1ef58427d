// The advisers family: investment advisers and institutional managers as the held filings name
// them (Form 13F filing and other managers, N-CEN advisers and sub-advisers), with the funds they
// advise and their 13F holdings summarised per quarter, every value citing its filing.
import { z } from 'zod';
import { AdviserDocument, AdvisersDocument, type AdviserQuery, type AdvisersQuery } from '../operations/generated.ts';
import { coverage, coverageSchema, inView } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import { amendmentRule, valueUnitRule } from '../../resolvers/ownership.ts';
import { adviserRoles } from '../../resolvers/adviserDirectory.ts';
import { provenance } from './ownership.ts';

const common = { tag: 'Advisers', access: 'org' as const, meter: 'data_read', mcp: true };

const identityRule =
  'An adviser is every mention the held filings make of one firm: a Form 13F names its filing manager by CIK (and, optionally, CRD and SEC file number) and other managers on its cover and summary pages; an N-CEN names each fund\'s investment advisers and sub-advisers by SEC file number, CRD and LEI, never by CIK. Mentions sharing a CIK, CRD, SEC file number, Form 13F file number or LEI are one adviser (two different CIKs never are); a mention with none of them is known by its name. ' +
  'An adviser with a CIK is read at `/v1/advisers/{cik}`; one the filings name without a CIK (N-CEN\'s advisers, unless a 13F ties their CRD or file number to one) at `/v1/advisers/crd/{crd}`, and the list finds it by `crd`, `sec_file_number`, `lei` or `q`.';

const roleEnum = z.enum(adviserRoles).describe('13f_filer: files Form 13F; 13f_other_manager: named on another manager\'s 13F cover or summary page; investment_adviser and sub_adviser: named so for a fund series in an N-CEN (Part C, item C.9)');

const sourceFiling = z.object({
  ...provenance,
  formType: z.string(),
  filedAt: z.string().nullable().describe('Filing date, YYYY-MM-DD'),
  role: roleEnum,
  sourceSection: z.string().describe('Where in the filing the adviser is named'),
  nameAsFiled: z.string().nullable(),
  cik: z.string().nullable(),
  crd: z.string().nullable(),
  secFileNumber: z.string().nullable(),
  form13FFileNumber: z.string().nullable(),
  lei: z.string().nullable(),
  timesNamed: z.number().int().describe('How many items of the filing name the adviser so (an N-CEN names it once per fund series); sourceSection is the first'),
});

const quarter = z.object({
  period: z.string().nullable().describe('The calendar quarter end the 13F reports, YYYY-MM-DD'),
  ...provenance,
  formType: z.string().describe('The form of the filing cited: the quarter\'s base report (original or restatement)'),
  filedAt: z.string().nullable(),
  filings: z.array(z.object({ ...provenance, formType: z.string(), filedAt: z.string().nullable(), amendmentType: z.string().nullable(), role: z.string().describe('original, restatement, new_holdings_amendment, superseded or notice_or_cover_only') })).describe(`Every 13F held for the quarter and what it contributes. ${amendmentRule}`),
  positionsCount: z.number().int().nullable().describe('Information table rows making the quarter\'s holdings; null when no table is held (see totalValueNullReason)'),
  totalValueUsd: z.number().nullable().describe('The rows\' values summed, in whole dollars (values reported in thousands are normalised)'),
  totalValueNullReason: z.string().nullable(),
  tableEntryTotal: z.number().nullable().describe('Summary page: the row count the filer declares (one filing making the quarter)'),
  tableValueTotalUsd: z.number().nullable().describe('Summary page: the total the filer declares, in whole dollars (one filing making the quarter)'),
  valueUnit: z.enum(['dollars', 'thousands']).nullable().describe('The unit the filing reported values in'),
  valueReportedInThousands: z.boolean().nullable(),
  valueUnitReason: z.string().nullable().describe(`How the unit was decided. ${valueUnitRule}`),
});

const topHolding = z.object({
  ...provenance,
  issuerName: z.string().nullable(),
  classTitle: z.string().nullable(),
  cusip: z.string().nullable(),
  putCall: z.string().nullable(),
  valueUsd: z.number().nullable().describe('Whole dollars, the position\'s rows summed'),
  percentOfTotal: z.number().nullable().describe('Percent of the quarter\'s totalValueUsd, two decimals'),
  sharesOrPrincipalAmount: z.number().nullable(),
  sharesOrPrincipalType: z.string().nullable().describe('SH or PRN'),
  rows: z.number().int().describe('Information table rows of the position (a security split by discretion or other manager)'),
  sourceFields: z.array(z.string()).describe('The rows, e.g. informationTable/infoTable[3]'),
});

const fundAdvised = z.object({
  ...provenance,
  seriesId: z.string().nullable(),
  fundName: z.string().nullable(),
  registrantCik: z.string().nullable(),
  registrantName: z.string().nullable(),
  role: z.enum(['investment_adviser', 'sub_adviser']),
  isAffiliated: z.boolean().nullable().describe('As the N-CEN answers whether the adviser is affiliated; null where the form does not ask (it asks of sub-advisers)'),
  formType: z.string(),
  filedAt: z.string().nullable(),
  reportPeriodEnd: z.string().nullable().describe('The fiscal year end the N-CEN covers'),
  sourceSection: z.string(),
});

const summaryShape = {
  id: z.string().nullable().describe('The CIK (10 digits) when a held filing gives one, else `crd-<CRD>`; null when the filings give neither (see profilePathNullReason)'),
  profilePath: z.string().nullable().describe('Where the adviser\'s profile is read'),
  profilePathNullReason: z.string().nullable(),
  cik: z.string().nullable().describe('Central Index Key, 10 digits'),
  cikNullReason: z.string().nullable(),
  name: z.string().nullable().describe('As its own latest 13F names it, else as the newest filing naming it does'),
  otherNames: z.array(z.string()).describe('Other spellings the filings use'),
  crd: z.string().nullable().describe('CRD number (FINRA/IARD), as filed'),
  crdNullReason: z.string().nullable(),
  secFileNumber: z.string().nullable().describe('SEC file number, 801- for a registered investment adviser'),
  secFileNumberNullReason: z.string().nullable(),
  form13FFileNumber: z.string().nullable().describe('Form 13F file number, 028-'),
  lei: z.string().nullable().describe('Legal Entity Identifier (N-CEN only)'),
  leiNullReason: z.string().nullable(),
  roles: z.array(roleEnum),
  source: sourceFiling.describe('The newest filing naming the adviser; name and identifiers are the newest each filing states'),
  filingsNamingCount: z.number().int().describe('Held filings that name the adviser'),
  fundsAdvisedCount: z.number().int().describe('Fund series it is investment adviser of, per their registrants\' latest N-CEN'),
  fundsSubAdvisedCount: z.number().int().describe('Fund series it is sub-adviser of'),
  latest13f: quarter.nullable().describe('Its latest quarter of Form 13F holdings'),
  latest13fNullReason: z.string().nullable().describe('Why latest13f (or its total) is null'),
};

const adviserRow = z.object({ object: z.literal('adviser'), ...summaryShape }).partial().required({ object: true, id: true, name: true, source: true });

const listRoute = operationRoute({
  name: 'advisers_list',
  method: 'GET',
  path: '/v1/advisers',
  summary: 'Investment advisers and managers named by Form 13F and N-CEN',
  description:
    `One row per adviser or institutional manager the held filings name, ordered by name; cursor pagination. Each row gives its CIK, CRD, SEC file number and LEI where a filing states them (else a reason), its roles, how many fund series it advises per N-CEN, and its latest 13F quarter (positions, total value in dollars, the filing). ${identityRule}`,
  ...common,
  params: {
    query: z.strictObject({
      q: z.string().min(2).max(100).optional().describe('Words that must all appear in the adviser\'s name or another spelling of it (case-insensitive)'),
      has_13f: z.enum(['true', 'false']).optional().describe('true: only advisers with a Form 13F of their own held; false: only those without'),
      role: roleEnum.optional().describe('Only advisers the filings name in this role'),
      crd: z.string().regex(/^\d{1,10}$/, 'expected a CRD number, digits').optional().describe('CRD number, with or without leading zeros, e.g. 108477'),
      sec_file_number: z.string().regex(/^\d{2,3}-\d{1,8}$/, 'expected a file number like 801-56720').optional().describe('SEC file number (801-…) or Form 13F file number (028-…)'),
      lei: z.string().regex(/^[A-Za-z0-9]{20}$/, 'expected a 20-character LEI').optional(),
      ...pageParams,
      view: viewParam,
    }),
  },
  response: listEnvelope(adviserRow).extend({ identityRule: z.string().describe('How mentions in filings become one adviser'), coverage: coverageSchema }),
  operation: AdvisersDocument,
  variables: ({ query }) => ({ q: query.q ?? null, has13f: query.has_13f ? query.has_13f === 'true' : null, role: query.role ?? null, crd: query.crd ?? null, secFileNumber: query.sec_file_number ?? null, lei: query.lei ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ advisers: page }, meta, { query }) => ({
  object: 'list',
  data: page.nodes.map((a) =>
    inView(query.view, { object: 'adviser' as const, ...rowOf(a) }, { always: ['object', 'id', 'name', 'source'], compact: ['cik', 'crd', 'roles', 'fundsAdvisedCount'], agent: ['cik', 'crd', 'secFileNumber', 'lei', 'roles', 'fundsAdvisedCount', 'fundsSubAdvisedCount', 'latest13f', 'profilePath'] }),
  ),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  identityRule,
  coverage: coverage('Advisers and managers named by the Form 13F and N-CEN filings ingested (N-CEN: each registrant\'s latest)'),
  ...meta,
}));

type Summary = AdvisersQuery['advisers']['nodes'][number];

/** The JSON fields of the operation, typed as the contract describes them. */
function rowOf<T extends Summary>(a: T) {
  return {
    ...a,
    roles: a.roles as z.infer<typeof roleEnum>[],
    source: a.source as z.input<typeof sourceFiling>,
    latest13f: a.latest13f as z.input<typeof quarter> | null,
  };
}

const profileQuery = z.strictObject({
  periods: z.coerce.number().int().min(1).max(40).default(4).describe('How many 13F quarters to summarise, newest first'),
  top: z.coerce.number().int().min(0).max(50).default(10).describe('Largest positions listed per quarter'),
});

const profileResponse = z.object({
  object: z.literal('adviser'),
  ...summaryShape,
  mentions: z.array(sourceFiling).describe('Every held filing naming the adviser, newest first, with what each states'),
  fundsAdvised: z.array(fundAdvised).describe('Fund series it advises or sub-advises, per their registrants\' latest N-CEN, by registrant then fund'),
  quarters: z.array(quarter.extend({ topHoldings: z.array(topHolding) })).describe('Its Form 13F quarters, newest first, with the largest positions'),
  quartersNullReason: z.string().nullable(),
  periodsAvailable: z.array(z.string()).describe('Every quarter of its 13F held, newest first'),
  identityRule: z.string(),
  requestId: z.string(),
});

function profileOf({ adviser: a }: AdviserQuery, meta: { requestId: string }) {
  return {
    object: 'adviser' as const,
    ...rowOf(a),
    mentions: a.mentions as z.input<typeof sourceFiling>[],
    fundsAdvised: a.fundsAdvised as z.input<typeof fundAdvised>[],
    quarters: a.quarters as z.input<typeof profileResponse>['quarters'],
    identityRule,
    ...meta,
  };
}

const profileDescription =
  'Every held filing naming it, the fund series it advises or sub-advises (each citing its N-CEN), and its Form 13F quarters newest first: positions, total value in whole dollars (a filing that reported thousands is normalised), the summary page\'s declared totals, the largest positions, and the filings cited. ';

const byCikRoute = operationRoute({
  name: 'advisers_get',
  method: 'GET',
  path: '/v1/advisers/{cik}',
  summary: 'An adviser or manager by CIK: funds advised and 13F quarters',
  description: `${profileDescription}A CIK no held 13F or N-CEN names as an adviser or manager is 404 \`adviser_not_found\`. ${identityRule}`,
  ...common,
  errors: ['adviser_not_found'],
  params: { path: z.strictObject({ cik: z.string().regex(/^\d{1,10}$/, 'expected a CIK, up to 10 digits').describe('The adviser\'s Central Index Key, e.g. 1099219') }), query: profileQuery },
  response: profileResponse,
  operation: AdviserDocument,
  variables: ({ path, query }) => ({ cik: path.cik, crd: null, periods: query.periods, top: query.top }),
}).reshape((data, meta) => profileOf(data, meta));

const byCrdRoute = operationRoute({
  name: 'advisers_get_by_crd',
  method: 'GET',
  path: '/v1/advisers/crd/{crd}',
  summary: 'An adviser by CRD number, for one the filings name without a CIK',
  description: `${profileDescription}A CRD no held filing states is 404 \`adviser_not_found\`. ${identityRule}`,
  ...common,
  errors: ['adviser_not_found'],
  params: { path: z.strictObject({ crd: z.string().regex(/^\d{1,10}$/, 'expected a CRD number, digits').describe('CRD number, with or without leading zeros, e.g. 108477') }), query: profileQuery },
  response: profileResponse,
  operation: AdviserDocument,
  variables: ({ path, query }) => ({ cik: null, crd: path.crd, periods: query.periods, top: query.top }),
}).reshape((data, meta) => profileOf(data, meta));

export const adviserRoutes: Route[] = [listRoute, byCrdRoute, byCikRoute];
