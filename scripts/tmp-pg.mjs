import { PGlite } from '@electric-sql/pglite';
const extra = process.argv.slice(3).flatMap((a) => ['-c', a]);
const t = performance.now();
const pg = await PGlite.create(process.argv[2], extra.length ? { startParams: [...PGlite.defaultStartParams, ...extra] } : {});
const t1 = performance.now();
const r = await pg.query("select current_setting('shared_buffers') sb, current_setting('wal_buffers') wb, current_setting('max_connections') mc");
const t2 = performance.now();
await pg.close();
console.log(JSON.stringify(r.rows[0]), 'create', Math.round(t1 - t), 'first query', Math.round(t2 - t1), 'close', Math.round(performance.now() - t2));
