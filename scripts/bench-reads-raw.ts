// The baseline of `npm run bench:reads`: what the facts read costs with nothing between HTTP and
// PostgreSQL. A bare node:http server answering `GET /v1/facts?ticker=&tag=&form=&limit=` with one
// SQL statement, which also resolves the ticker. No authentication, no quota.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

pg.types.setTypeParser(1082, (day: string) => day); // DATE as YYYY-MM-DD, as the service answers
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const factsSql = `SELECT value, unit, "periodStart", "periodEnd", fy, fp, form, frame, "accessionNumber", "filedAt"
  FROM "Fact" WHERE cik IN (SELECT cik FROM "Ticker" WHERE ticker = $1) AND tag = $2 AND form = $3 AND NOT "hasDimensions"
  ORDER BY "periodEnd" DESC, "filedAt" DESC, "accessionNumber" DESC LIMIT $4`;
const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://raw');
  const q = url.searchParams;
  if (url.pathname !== '/v1/facts') return void res.writeHead(404).end();
  const { rows } = await pool.query(factsSql, [q.get('ticker'), q.get('tag'), q.get('form'), Number(q.get('limit') ?? 25)]);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'fact_series', facts: rows }));
});

server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
