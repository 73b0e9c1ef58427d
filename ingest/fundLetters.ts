// Fetches the shareholder reports (Form N-CSR, N-CSRS) of fund registrants from the SEC: for each
// registrant, its submissions (which name each filing's primary document) and the primary
// documents of its latest reports, loaded by the ingest's own runner, so a letter is read once
// (an Archives document already ingested is not asked for again). The registrants are the ones
// named, else the funds the database follows: the filers of the N-CEN and N-PORT reports held and
// of the fund reports already fetched. The daily sync brings new reports of held registrants too.
import type { PrismaClient } from '../prisma/db.ts';
import type { Logger } from '../core/logger.ts';
import type { EventBus } from '../subscriptions/bus.ts';
import { runIngest, type IngestSummary, type Progress } from './run.ts';
import { latestOfEachForm, secClient, tenDigitCik, type SecClientOptions } from './sources/secHttp.ts';
import type { Source } from './sources/types.ts';

export const fundReportForms = ['N-CSR', 'N-CSRS'];

export interface FundLetterFetchOptions extends Omit<SecClientOptions, 'isDone'> {
  /** the registrants to fetch; default the fund registrants the database follows */
  ciks?: string[];
  /** reports of each form per registrant, newest first (default 2) */
  latest?: number;
}

export interface FundLetterFetchSummary {
  ciks: string[];
  ingest: IngestSummary | null;
}

/** The registrants of the N-CEN, N-PORT and fund reports held. */
export async function followedFundRegistrants(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.formRecord.findMany({ where: { family: { in: ['NCEN', 'NPORT', 'NCSR'] }, isSample: false, cik: { not: null } }, distinct: ['cik'], select: { cik: true }, orderBy: { cik: 'asc' } });
  return rows.map((r) => r.cik!);
}

export async function fetchFundLetters(deps: { prisma: PrismaClient; bus: EventBus; logger: Logger }, options: FundLetterFetchOptions, progress?: Progress): Promise<FundLetterFetchSummary> {
  const ciks = options.ciks?.length ? options.ciks.map(tenDigitCik) : await followedFundRegistrants(deps.prisma);
  if (!ciks.length) return { ciks, ingest: null };
  const client = secClient({
    ...options,
    // a registrant's submissions change with every filing; a report's document is fetched once
    isDone: async (key) => key.startsWith('/Archives/') && (await deps.prisma.ingestItem.findUnique({ where: { sourceKey: key }, select: { status: true } }))?.status === 'ingested',
  });
  const latest = options.latest ?? 2;
  const source: Source = {
    describe: () => `SEC fund reports (${client.base.www}) of ${ciks.length} registrant${ciks.length === 1 ? '' : 's'}`,
    inLoadOrder: true,
    size: 2 * ciks.length,
    async *items() {
      for (const cik of ciks) yield* client.company(cik, (filings) => latestOfEachForm(filings, fundReportForms, latest), { pages: false });
    },
  };
  return { ciks, ingest: await runIngest(deps, source, progress) };
}

export function fundLetterFetchLine(s: FundLetterFetchSummary): string {
  if (!s.ingest) return 'fund-letters:fetch: no fund registrant is followed (no N-CEN, N-PORT or fund report held); name them with --ciks';
  return `fund-letters:fetch: ${s.ciks.length} registrant${s.ciks.length === 1 ? '' : 's'}; ${s.ingest.written} items written, ${s.ingest.failed} failed (${s.ingest.records} records)`;
}
