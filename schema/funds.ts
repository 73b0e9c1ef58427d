// Funds: registered fund series from Form N-CEN, and their N-PORT portfolios.
import { requireDataAccess } from '../resolvers/access.ts';
import { fundHoldings, funds, type Fund, type FundHolding, type FundReport } from '../resolvers/funds.ts';
import { builder } from './builder.ts';
import { cited } from './ownership.ts';

const FundRef = builder.objectRef<Fund>('Fund').implement({
  description: 'A registered fund series as its registrant\'s latest Form N-CEN describes it, or, where no N-CEN of it is held, as its latest N-PORT does.',
  fields: (t) => ({
    ...cited(t),
    id: t.exposeString('id'),
    source: t.exposeString('source', { description: 'The form that describes the series: N-CEN (its registrant\'s latest), else N-PORT (its own latest portfolio report)' }),
    seriesId: t.exposeString('seriesId', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    lei: t.exposeString('lei', { nullable: true }),
    registrantCik: t.exposeString('registrantCik', { nullable: true }),
    registrantName: t.exposeString('registrantName', { nullable: true }),
    registrantLei: t.exposeString('registrantLei', { nullable: true }),
    investmentCompanyFileNumber: t.exposeString('investmentCompanyFileNumber', { nullable: true }),
    classificationType: t.exposeString('classificationType', { nullable: true }),
    familyName: t.exposeString('familyName', { nullable: true }),
    fundTypes: t.exposeStringList('fundTypes'),
    isEtf: t.exposeBoolean('isEtf', { nullable: true, description: 'Null where only an N-PORT describes the series (it does not say)' }),
    isIndexFund: t.exposeBoolean('isIndexFund', { nullable: true, description: 'Null where only an N-PORT describes the series' }),
    isNonDiversified: t.exposeBoolean('isNonDiversified', { nullable: true }),
    classes: t.expose('classes', { type: 'JSON' }),
    monthlyAverageNetAssets: t.exposeFloat('monthlyAverageNetAssets', { nullable: true }),
    auditors: t.expose('auditors', { type: 'JSON' }),
    serviceProviders: t.expose('serviceProviders', { type: 'JSON', nullable: true }),
    etf: t.expose('etf', { type: 'JSON', nullable: true }),
    formType: t.exposeString('formType'),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    reportPeriodEnd: t.exposeString('reportPeriodEnd', { nullable: true }),
    sourceSection: t.exposeString('sourceSection'),
  }),
});

const FundPage = builder.objectRef<Awaited<ReturnType<typeof funds>>>('FundPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [FundRef], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

const Report = builder.objectRef<FundReport>('FundPortfolioReport').implement({
  description: 'The N-PORT report a portfolio comes from, with the fund\'s totals.',
  fields: (t) => ({
    ...cited(t),
    id: t.exposeString('id'),
    seriesId: t.exposeString('seriesId', { nullable: true }),
    seriesName: t.exposeString('seriesName', { nullable: true }),
    seriesLei: t.exposeString('seriesLei', { nullable: true }),
    registrantCik: t.exposeString('registrantCik', { nullable: true }),
    registrantName: t.exposeString('registrantName', { nullable: true }),
    registrantLei: t.exposeString('registrantLei', { nullable: true }),
    formType: t.exposeString('formType'),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    filedAtNullReason: t.exposeString('filedAtNullReason', { nullable: true }),
    reportDate: t.exposeString('reportDate', { nullable: true }),
    reportPeriodEnd: t.exposeString('reportPeriodEnd', { nullable: true }),
    isFinalFiling: t.exposeBoolean('isFinalFiling', { nullable: true }),
    totalAssets: t.exposeFloat('totalAssets', { nullable: true }),
    totalLiabilities: t.exposeFloat('totalLiabilities', { nullable: true }),
    netAssets: t.exposeFloat('netAssets', { nullable: true }),
    holdingsCount: t.exposeInt('holdingsCount'),
    reportDatesAvailable: t.exposeStringList('reportDatesAvailable'),
  }),
});

const Holding = builder.objectRef<FundHolding>('FundHolding').implement({
  description: 'One investment of an N-PORT portfolio (Part C).',
  fields: (t) => ({
    ...cited(t),
    id: t.exposeString('id'),
    position: t.exposeInt('position'),
    sourceField: t.exposeString('sourceField'),
    reportDate: t.exposeString('reportDate', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    title: t.exposeString('title', { nullable: true }),
    cusip: t.exposeString('cusip', { nullable: true }),
    isin: t.exposeString('isin', { nullable: true }),
    lei: t.exposeString('lei', { nullable: true }),
    ticker: t.exposeString('ticker', { nullable: true }),
    otherIdentifiers: t.expose('otherIdentifiers', { type: 'JSON' }),
    balance: t.exposeFloat('balance', { nullable: true }),
    units: t.exposeString('units', { nullable: true }),
    unitsDescription: t.exposeString('unitsDescription', { nullable: true }),
    currency: t.exposeString('currency', { nullable: true }),
    exchangeRate: t.exposeFloat('exchangeRate', { nullable: true }),
    valueUsd: t.exposeFloat('valueUsd', { nullable: true }),
    percentOfNetAssets: t.exposeFloat('percentOfNetAssets', { nullable: true }),
    payoffProfile: t.exposeString('payoffProfile', { nullable: true }),
    assetCategory: t.exposeString('assetCategory', { nullable: true }),
    assetCategoryLabel: t.exposeString('assetCategoryLabel', { nullable: true }),
    issuerCategory: t.exposeString('issuerCategory', { nullable: true }),
    issuerCategoryLabel: t.exposeString('issuerCategoryLabel', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
    isRestricted: t.exposeBoolean('isRestricted', { nullable: true }),
    fairValueLevel: t.exposeString('fairValueLevel', { nullable: true }),
    debt: t.expose('debt', { type: 'JSON', nullable: true }),
    derivativeCategory: t.exposeString('derivativeCategory', { nullable: true }),
  }),
});

const HoldingPage = builder.objectRef<Awaited<ReturnType<typeof fundHoldings>>>('FundHoldingPage').implement({
  fields: (t) => ({
    fund: t.field({ type: Report, resolve: (p) => p.fund }),
    nodes: t.field({ type: [Holding], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  funds: t.field({
    type: FundPage,
    description: 'Registered fund series from their registrants\' latest N-CEN, by registrant, class ticker, series id or name.',
    args: { cik: t.arg.string(), ticker: t.arg.string(), seriesId: t.arg.string(), q: t.arg.string(), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return funds(ctx, args);
    },
  }),
  fundHoldings: t.field({
    type: HoldingPage,
    description: 'A fund series\' N-PORT portfolio (the latest report held by default), in the report\'s order, with the fund\'s totals.',
    args: { seriesId: t.arg.string(), cik: t.arg.string(), ticker: t.arg.string(), reportDate: t.arg({ type: 'Date' }), assetCategory: t.arg.string(), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return fundHoldings(ctx, args);
    },
  }),
}));
