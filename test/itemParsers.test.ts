// An ingest beside a server parses its items on a thread of their own (ingest/parsers.ts): what
// the thread answers is what the item's handler parses inline, and a file that will not parse
// fails with the parser's own reason.
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { classify } from '../ingest/classify.ts';
import type { ItemInput } from '../ingest/handlers.ts';
import { inlineParser, threadParser } from '../ingest/parsers.ts';
import type { FactorLoad } from '../ingest/load/market.ts';
import { unpackedChunks } from '../core/packedRows.ts';
import { corpusFile, hasCorpus } from './corpus.ts';

const parser = threadParser();
afterAll(() => parser.close());

const input = async (key: string, fixture: string): Promise<ItemInput> => ({
  key,
  name: key.split('/').pop()!,
  text: await readFile(new URL(`./fixtures/${fixture}`, import.meta.url), 'utf8'),
  kind: classify(key),
  form: null,
});

describe('the parse thread', () => {
  it('answers what the handler parses inline, documents and forms alike', async () => {
    for (const [key, fixture] of [
      ['filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html', 'sections/10-K_example.html'],
      ['filings/8k/8-K_special-meeting.txt', 'eightk/special-meeting-5.02-5.07.txt'],
      ['filings/offerings/S-1_resale.txt', 'offerings/resale-s1.txt'],
      ['forms/13f/13F_fixture.txt', 'forms/13F-HR-A-full-submission.txt'],
    ]) {
      const item = await input(key!, fixture!);
      expect(['periodic_report', 'current_report', 'offering', 'form_13f']).toContain(item.kind);
      expect(await parser.parse(item)).toEqual(await inlineParser.parse(item));
    }
  });

  it.runIf(hasCorpus)('hands a daily factor file\'s values over packed, the same as inline', async () => {
    const key = 'market/factors/F-F_Research_Data_Factors_daily.CSV';
    const item: ItemInput = { key, name: key.split('/').pop()!, text: await corpusFile(key), kind: classify(key), form: null };
    const threaded = (await parser.parse(item)) as FactorLoad;
    expect(threaded).toEqual(await inlineParser.parse(item));
    expect(threaded.frequencies).toEqual(['daily']);
    expect(threaded.values.count).toBe(threaded.rows * 4); // Mkt-RF, SMB, HML, RF each day
    const [first] = unpackedChunks(threaded.values, 1);
    expect(first![0]).toEqual(['daily', threaded.span!.first, threaded.span!.first, 'Mkt-RF', expect.stringMatching(/^-?\d+\.\d+$/)]);
  });

  it('fails a file that will not parse with the parser reason', async () => {
    const broken: ItemInput = { key: 'filings/10k/report.html', name: 'report.html', text: '<html><body>no form, no accession</body></html>', kind: 'periodic_report', form: null };
    const inline = await inlineParser.parse(broken).then(() => null, (error: Error) => error.message);
    expect(inline).toMatch(/10-K or a 10-Q/);
    await expect(parser.parse(broken)).rejects.toThrow(inline!);
  });
});
