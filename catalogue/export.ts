// Exports (SPEC 6.6): every record of a list route as a download, NDJSON (one record a line) or
// one JSON array, in constant memory whatever the size. The list's own persisted operation is run
// page by page, each page written before the next is read, and the client's pace is kept (a full
// socket buffer is waited out). Nothing is written until the first page has been read, so a bad
// filter, a refused credential or a failing read is still the error envelope; a failure after the
// first byte cuts the download short (the socket is destroyed), so it cannot pass for complete.
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Context } from '../resolvers/context.ts';
import { listEnvelope, type Route } from './route.ts';

export const exportFormats = { ndjson: 'application/x-ndjson', json: 'application/json' } as const;

export const formatParam = z.enum(['ndjson', 'json']).default('ndjson').describe('`ndjson` (default): one JSON record a line, `application/x-ndjson`; `json`: one JSON array, `application/json`.');

/** Records read (and held) at a time. */
export const exportPageSize = 100;

interface ListPage {
  data: unknown[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Resolves when the socket can take more, or has gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function streamExport(list: Route, params: { path: any; query: any }, ctx: Context, res: ServerResponse): Promise<void> {
  const { format, ...filters } = params.query as { format: keyof typeof exportFormats };
  // a context per page: per-request loaders and caches hold only the page being written
  const read = (cursor?: string) => list.run({ path: params.path, query: { ...filters, limit: exportPageSize, cursor }, body: undefined }, { ...ctx }) as Promise<ListPage>;
  let page = await read();

  let gone = false;
  res.once('close', () => (gone = true));
  const name = list.path.split('/').at(-1);
  res.writeHead(200, { 'Content-Type': `${exportFormats[format]}; charset=utf-8`, 'Content-Disposition': `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.${format}"` });
  try {
    let written = 0;
    if (format === 'json') res.write('[');
    for (;;) {
      const chunk = page.data.map((record) => (format === 'json' ? `${written++ ? ',' : ''}${JSON.stringify(record)}` : `${JSON.stringify(record)}\n`)).join('');
      if (chunk && !res.write(chunk)) await drained(res);
      if (gone) return; // the client went away: read no further
      if (!page.hasMore || !page.nextCursor) break;
      page = await read(page.nextCursor);
    }
    res.end(format === 'json' ? ']' : undefined);
  } catch (error) {
    ctx.logger.error({ requestId: ctx.requestId, err: error }, 'export failed after its first byte; the download was cut short');
    res.destroy();
  }
}

/**
 * The export of a cursor-paginated list route, at its path + `/export`: the same filters, `format`
 * instead of `limit` and `cursor`, and every record of the list streamed (catalogue/export.ts) by paging
 * through the list's own operation. Documented as `response`: the JSON form, an array of the list's items.
 */
export function exportRoute(list: Route, def: { name: string; summary: string; description: string }): Route {
  const items = (list.response as ReturnType<typeof listEnvelope>).shape?.data;
  if (!(items instanceof z.ZodArray) || !list.params.query) throw new Error(`${list.name} is not a cursor-paginated list`);
  const { limit: _limit, cursor: _cursor, ...filters } = list.params.query.shape;
  return {
    ...def,
    method: 'GET',
    path: `${list.path}/export`,
    tag: list.tag,
    access: list.access,
    meter: list.meter,
    errors: list.errors,
    params: { path: list.params.path, query: z.strictObject({ ...filters, format: formatParam }) },
    response: items,
    run: () => Promise.reject(new Error(`${def.name} is streamed, not answered as one body`)),
    stream: (params, ctx, res) => streamExport(list, params, ctx, res),
    download: {
      note:
        'A download, streamed as it is read (constant memory on both sides, any size): `format=ndjson` (default) is `application/x-ndjson`, one record a line; `format=json` is `application/json`, one array of the records. ' +
        'Errors found before the first byte (parameters, credentials, quota, the first page) are the error envelope; a failure after it ends the download abruptly, without its last line or closing `]`, so an incomplete file never looks complete.',
      filename: '<records>-<YYYY-MM-DD>.<format>',
      content: { 'application/x-ndjson': 'items', 'application/json': 'response' },
    },
  };
}
