// The baseline of `npm run bench:reads`: what a read costs with nothing between HTTP and
// PostgreSQL. A bare node:http server answering each read with one SQL statement, which also
// resolves the ticker: `GET /v1/facts?ticker=&tag=&form=&limit=`, the stored statement periods
// (`/v1/statements/all?ticker=&period=&limit=`), segment periods (`/v1/companies/segments?ticker=`)
// and filings (`/v1/filings?ticker=&form=&limit=`). No authentication, no quota.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

pg.types.setTypeParser(1082, (day: string) => day); // DATE as YYYY-MM-DD, as the service answers
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
// a ticker names a company in the ticker maps or in its own submissions, as the service resolves it
const company = `cik IN (SELECT cik FROM "Ticker" WHERE ticker = $1 UNION SELECT cik FROM "Entity" WHERE tickers @> ARRAY[$1::text])`;
const factsSql = `SELECT value, unit, "periodStart", "periodEnd", fy, fp, form, frame, "accessionNumber", "filedAt"
  FROM "Fact" WHERE ${company} AND tag = $2 AND form = $3 AND NOT "hasDimensions"
  ORDER BY "periodEnd" DESC, "filedAt" DESC, "accessionNumber" DESC LIMIT $4`;
const statementsSql = `SELECT body FROM "StatementPeriod" WHERE ${company} AND basis = $2 AND "asReported" = 'latest' ORDER BY "periodEnd" DESC LIMIT $3`;
const segmentsSql = `SELECT axis, kind, body FROM "SegmentPeriod" WHERE ${company} ORDER BY "axisOrder", "periodEnd" DESC`;
// Each company's newest filings, then the newest of those: with the ticker's companies as a
// subquery, the planner expects dozens of them and walks the index of every filing by date until
// it has found the page (0.4 s a read at factor 1,000, still running into the service's turn).
const filingsSql = `SELECT f.* FROM (SELECT cik FROM "Ticker" WHERE ticker = $1 UNION SELECT cik FROM "Entity" WHERE tickers @> ARRAY[$1::text]) c
  CROSS JOIN LATERAL (SELECT "accessionNumber", form, "filedAt", "acceptedAt", "reportDate", items, "primaryDocument", "primaryDocDescription", size, "isXbrl", "isInlineXbrl", "orderedAt"
    FROM "Filing" WHERE cik = c.cik AND ($2::text IS NULL OR form = $2) ORDER BY "orderedAt" DESC, "accessionNumber" DESC LIMIT $3) f
  ORDER BY f."orderedAt" DESC, f."accessionNumber" DESC LIMIT $3`;

const reads: Record<string, (q: URLSearchParams) => [string, unknown[], string]> = {
  '/v1/facts': (q) => [factsSql, [q.get('ticker'), q.get('tag'), q.get('form'), Number(q.get('limit') ?? 25)], 'facts'],
  '/v1/statements/all': (q) => [statementsSql, [q.get('ticker'), q.get('period') ?? 'annual', Number(q.get('limit') ?? 4)], 'periods'],
  '/v1/companies/segments': (q) => [segmentsSql, [q.get('ticker')], 'axes'],
  '/v1/filings': (q) => [filingsSql, [q.get('ticker'), q.get('form'), Number(q.get('limit') ?? 25)], 'data'],
};

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://raw');
  const read = reads[url.pathname];
  if (!read) return void res.writeHead(404).end();
  const [sql, values, field] = read(url.searchParams);
  const { rows } = await pool.query(sql, values);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ [field]: rows }));
});

server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
