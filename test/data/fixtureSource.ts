// A source of our own fixture files, placed at the keys a corpus folder would have them, plus
// inline texts for inputs that are broken on purpose.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Source } from '../../ingest/sources/types.ts';

export type FixtureItems = Record<string, { fixture: string } | { text: string }>;

export function fixtureSource(items: FixtureItems): Source {
  return {
    describe: () => 'test fixtures',
    async *items() {
      for (const [key, from] of Object.entries(items)) {
        yield {
          key,
          name: key.split('/').pop()!,
          read: () => ('text' in from ? Promise.resolve(from.text) : readFile(fileURLToPath(new URL(`../fixtures/${from.fixture}`, import.meta.url)), 'utf8')),
        };
      }
    },
  };
}

/** Fixture files laid out like ../shared/data: enough for every handler to run. */
export const fixtureCorpus: FixtureItems = {
  'reference/company_tickers.json': { fixture: 'sec/company_tickers.json' },
  'reference/company_tickers_exchange.json': { fixture: 'sec/company_tickers_exchange.json' },
  'submissions/CIK0000320193.json': { fixture: 'sec/CIK0000320193.json' },
  'submissions/CIK0000320193-submissions-001.json': { fixture: 'sec/CIK0000320193-submissions-001.json' },
  'index/daily/form.20240102.idx': { fixture: 'sec/form.20240102.idx' },
  'companyfacts/CIK0000000001.json': { fixture: 'xbrl/companyfacts-exact.json' },
  'filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html': { fixture: 'sections/10-K_example.html' },
  'filings/8k/8-K_special-meeting.txt': { fixture: 'eightk/special-meeting-5.02-5.07.txt' },
  'filings/offerings/S-1_resale.txt': { fixture: 'offerings/resale-s1.txt' },
  'forms/formd/D_fixture.xml': { fixture: 'forms/formD-indefinite.xml' },
  'forms/form144/144_fixture.xml': { fixture: 'forms/form144-amendment.xml' },
  'forms/formc/C_fixture.xml': { fixture: 'forms/formC-amendment.xml' },
  'forms/13dg/SC13G_fixture.xml': { fixture: 'forms/schedule13G-amendment.xml' },
  'forms/13f/13F_fixture.txt': { fixture: 'forms/13F-HR-A-full-submission.txt' },
  'forms/ownership/4_fixture.xml': { fixture: 'forms/form4-amendment-joint.xml' },
  'forms/ncen/NCEN_fixture.txt': { fixture: 'forms/ncen-index-etf-submission.txt' },
  'forms/nport/NPORT_fixture.xml': { fixture: 'forms/nport-foreign-and-derivative.xml' },
  'forms/npx/NPX_fixture.txt': { fixture: 'forms/npx-full-submission.txt' },
};
