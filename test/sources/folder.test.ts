// The folder source: every data file below a folder laid out like the corpus, in a stable order.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../ingest/sources/folder.ts';
import type { Source, SourceItem } from '../../ingest/sources/types.ts';
import { corpusDir, fixture, hasCorpus } from '../corpus.ts';

async function list(source: Source): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of source.items()) items.push(item);
  return items;
}

describe('folder source (a folder of fixtures)', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ids-folder-'));
    const files: Record<string, string> = {
      'submissions/CIK0000320193.json': await fixture('sec/CIK0000320193.json'),
      'index/daily/form.20240102.idx': await fixture('sec/form.20240102.idx'),
      'reference/company_tickers.json': await fixture('sec/company_tickers.json'),
      'MANIFEST.md': '# manifest',
      'README.md': '# about this folder',
      'index/README': 'notes',
      '.DS_Store': 'x',
      '.cache/CIK0000789019.json': '{}',
    };
    for (const [relative, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await writeFile(path.join(root, relative), content);
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('lists the data files with forward-slash keys, sorted, without manifest, readmes or hidden files', async () => {
    const items = await list(folderSource(root));
    expect(items.map((i) => i.key)).toEqual(['index/daily/form.20240102.idx', 'reference/company_tickers.json', 'submissions/CIK0000320193.json']);
    expect(items.map((i) => i.name)).toEqual(['form.20240102.idx', 'company_tickers.json', 'CIK0000320193.json']);
  });

  it('reads a file as it is on disk', async () => {
    const item = (await list(folderSource(root))).find((i) => i.name === 'CIK0000320193.json')!;
    expect(await item.read()).toBe(await fixture('sec/CIK0000320193.json'));
  });

  it('says which folder it reads, and fails clearly on a folder that is not there', async () => {
    expect(folderSource(root).describe()).toBe(`folder ${root}`);
    await expect(list(folderSource(path.join(root, 'missing')))).rejects.toThrow(/folder source: cannot list .*missing/);
  });
});

describe.runIf(hasCorpus)('folder source (corpus)', () => {
  it('lists every corpus file once, in the same order on every run', async () => {
    const first = (await list(folderSource(corpusDir))).map((i) => i.key);
    const second = (await list(folderSource(corpusDir))).map((i) => i.key);
    // MANIFEST.md counts 111 data files besides itself
    expect(first).toHaveLength(111);
    expect(second).toEqual(first);
    expect([...first].sort()).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
    expect(first).toContain('submissions/CIK0000320193.json');
    expect(first).toContain('index/daily/form.20200318.idx');
    expect(first).not.toContain('MANIFEST.md');
  });
});
