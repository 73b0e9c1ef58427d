// Monitors across two instances sharing one PostgreSQL database: both run the delivery worker,
// and each match is still delivered once; concurrent checks on both instances split the matches.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, eventually, orgWithKey, startTestService, type TestService } from '../harness.ts';

let a: TestService;
let b: TestService;
let receiver: Server;
let receiverUrl = '';
const arrived: { eventId: string; accessions: string[] }[] = [];
const company = { cik: 9200001, name: 'Twice Watched Corp' };

let files = 0;
async function ingest(instance: TestService, rows: { form: string; accession: string }[]) {
  const lines = rows.map((r) => `${company.cik}|${company.name}|${r.form}|2025-07-01|edgar/data/${company.cik}/${r.accession}.txt`);
  const text = ['Description: Master Index', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), ...lines, ''].join('\n');
  await runIngest(instance.service.services, fixtureSource({ [`index/daily/master.2026${String(++files).padStart(4, '0')}.idx`]: { text } }));
}
const accession = (n: number) => `${String(company.cik).padStart(10, '0')}-25-${String(n).padStart(6, '0')}`;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestService(), startTestService()]);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const event = JSON.parse(body);
      if (event.type === 'monitor.matched') arrived.push({ eventId: event.id, accessions: event.data.items.map((i: { accessionNumber: string }) => i.accessionNumber) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  await ingest(a, [{ form: '8-K', accession: accession(1) }]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

it('delivers each match once with two workers, and splits concurrent checks between instances without overlap', async () => {
  const { key } = await orgWithKey(a);
  const endpoint = await call(a, 'POST', '/v1/webhook_endpoints', { key, body: { url: receiverUrl, eventTypes: ['api_key.created'] } });
  const query = { route: '/v1/filings', params: { cik: String(company.cik) } };
  const pushed = await call(a, 'POST', '/v1/monitors', { key, body: { name: 'pushed', query, delivery: { type: 'webhook', webhookEndpointId: endpoint.body.id } } });
  const pulled = await call(b, 'POST', '/v1/monitors', { key, body: { name: 'pulled', query } });
  expect([pushed.status, pulled.status]).toEqual([200, 200]);

  const fresh = Array.from({ length: 20 }, (_, i) => accession(100 + i));
  await Promise.all([ingest(a, fresh.slice(0, 10).map((n) => ({ form: '8-K', accession: n }))), ingest(b, fresh.slice(10).map((n) => ({ form: '10-Q', accession: n })))]);
  await Promise.all([a.service.webhookWorker!.drain(), b.service.webhookWorker!.drain()]);
  await eventually('both batches delivered', () => arrived.flatMap((d) => d.accessions).length >= 20);
  await Promise.all([a.service.webhookWorker!.drain(), b.service.webhookWorker!.drain()]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const delivered = arrived.flatMap((d) => d.accessions);
  expect(delivered.sort()).toEqual([...fresh].sort());
  expect(new Set(arrived.map((d) => d.eventId)).size).toBe(arrived.length);

  const seen: string[] = [];
  for (let round = 0; round < 10 && seen.length < 20; round++) {
    const answers = await Promise.all([a, b, a, b].map((instance) => call(instance, 'GET', `/v1/monitors/${pulled.body.id}/matches?limit=3`, { key })));
    for (const answer of answers) seen.push(...answer.body.data.map((i: { accessionNumber: string }) => i.accessionNumber));
  }
  expect(seen.sort()).toEqual([...fresh].sort());
});
