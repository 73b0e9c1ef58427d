// The Filings operation's data read in one statement, for the REST and MCP doors: what executing
// the persisted document answers (test/filingsData.test.ts holds the two equal), without the
// client's query engine reading a page of filings, their entities and the entities' listings
// in three queries, and the executor resolving a dozen fields of each of up to a hundred
// filings. A page of filings cost ten times what the database spent on it. /graphql still
// executes the field.
import { formatPrismaCursor, parsePrismaCursor } from '@pothos/plugin-prisma';
import { PothosValidationError } from '@pothos/core';
import { Prisma } from '../prisma/generated/client/client.ts';
import { directRead } from '../prisma/directRead.ts';
import { citationUrl } from '../derived/citations.ts';
import { requireDataAccess } from '../resolvers/access.ts';
import type { Context } from '../resolvers/context.ts';
import { companyFilter, entityTickers } from '../schema/edgar.ts';
import type { FilingsQuery, FilingsQueryVariables } from './operations/generated.ts';

interface FilingRow {
  accessionNumber: string;
  cik: string;
  form: string;
  filedAt: string | null;
  acceptedAt: string | null;
  reportDate: string | null;
  items: string[];
  primaryDocument: string | null;
  primaryDocDescription: string | null;
  documentIngested: boolean;
  name: string;
  tickers: string[];
  listings: string[];
}

export async function filingsData(variables: FilingsQueryVariables, ctx: Context): Promise<FilingsQuery> {
  requireDataAccess(ctx);
  const { cik, ticker, form, item, only, filedFrom, filedTo, first, after } = variables;
  const company = await companyFilter(ctx, { cik, ticker });
  // as the connection reads a page: one row more than asked tells whether there is a next page;
  // after a cursor, from the cursor's row on (it is skipped), by its place in the order
  const cursor = after == null ? null : accessionOfCursor(after);
  const conditions = [
    ...(company.cik ? [Prisma.sql`f.cik = ANY(${company.cik.in}::text[])`] : []),
    ...(form ? [Prisma.sql`f.form = ${form}`] : []),
    ...(item ? [Prisma.sql`${item} = ANY(f.items)`] : []),
    ...(only ? [Prisma.sql`f."accessionNumber" = ANY(${only}::text[])`] : []),
    ...(filedFrom ? [Prisma.sql`f."filedAt" >= ${filedFrom}::date`] : []),
    ...(filedTo ? [Prisma.sql`f."filedAt" <= ${filedTo}::date`] : []),
    ...(cursor === null ? [] : [Prisma.sql`(f."orderedAt", f."accessionNumber") <= (SELECT c."orderedAt", c."accessionNumber" FROM "Filing" c WHERE c."accessionNumber" = ${cursor})`]),
  ];
  const rows = await directRead<FilingRow>(ctx.prisma, Prisma.sql`
    -- a list column may hold NULL, which the client reads as an empty list
    SELECT f."accessionNumber", f.cik, f.form, f."filedAt"::text AS "filedAt",
      to_char(f."acceptedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "acceptedAt", f."reportDate"::text AS "reportDate", coalesce(f.items, '{}') AS items,
      f."primaryDocument", f."primaryDocDescription", f."documentSourceKey" IS NOT NULL AS "documentIngested", e.name, coalesce(e.tickers, '{}') AS tickers,
      ARRAY(SELECT t.ticker FROM "Ticker" t WHERE t.cik = f.cik ORDER BY t.ticker, t.source) AS listings
    FROM "Filing" f JOIN "Entity" e ON e.cik = f.cik
    ${conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty}
    ORDER BY f."orderedAt" DESC, f."accessionNumber" DESC
    LIMIT ${first + 1} OFFSET ${cursor === null ? 0 : 1}`);
  const nodes = rows.slice(0, first).map((f) => ({
    accessionNumber: f.accessionNumber,
    cik: f.cik,
    form: f.form,
    filedAt: f.filedAt,
    acceptedAt: f.acceptedAt,
    reportDate: f.reportDate,
    items: f.items,
    primaryDocument: f.primaryDocument,
    primaryDocDescription: f.primaryDocDescription,
    citationUrl: citationUrl(f.cik, f.accessionNumber, f.primaryDocument),
    documentIngested: f.documentIngested,
    entity: { name: f.name, tickers: entityTickers(f.tickers, f.listings) },
  }));
  const last = nodes.at(-1);
  return { filings: { pageInfo: { hasNextPage: rows.length > first, endCursor: last ? formatPrismaCursor(last, 'accessionNumber') : null }, nodes } };
}

/** The accession number a connection cursor names; refused as the connection refuses a cursor it did not issue. */
function accessionOfCursor(cursor: string): string {
  const value = parsePrismaCursor(cursor);
  if (typeof value !== 'string') throw new PothosValidationError(`Invalid cursor: ${cursor}`);
  return value;
}
