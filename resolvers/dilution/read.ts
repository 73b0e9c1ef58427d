// Reads of a company's dilution records: stored at ingest (materialize.ts), read back by table.
import type { DataReader } from '../../derived/dataCache.ts';
import { isoDay } from '../../derived/citations.ts';
import { dilutionRulesVersion, materializeDilution, type DilutionKind } from '../../derived/dilution/materialize.ts';

/** The tables of the dilution family: each route's path, and the record kinds it lists. */
export const dilutionTables: { table: string; kinds: DilutionKind[] }[] = [
  { table: 'share-float-history', kinds: ['shares_outstanding', 'public_float'] },
  { table: 'cash-position', kinds: ['cash_position'] },
  { table: 'warrants', kinds: ['warrant'] },
  { table: 'convertibles', kinds: ['convertible'] },
  { table: 'reverse-splits', kinds: ['reverse_split'] },
  { table: 'corporate-actions', kinds: ['corporate_action', 'stock_split'] },
  { table: 'exchange-compliance', kinds: ['compliance_notice'] },
  { table: 'lockups', kinds: ['lockup'] },
  { table: 'rofr', kinds: ['rofr'] },
  { table: 'offerings', kinds: ['offering', 'atm_program', 'shelf'] },
];

/**
 * A company's records exist and are built by the current rules: a company never built (a database
 * that held its data before dilution records existed) or built by older rules is built now, once.
 */
export function ensureDilution(reader: DataReader, cik: string): Promise<{ builtAt: Date }> {
  return reader.cache.data.memo(`dilution-profile:${cik}`, async () => {
    const profile = await reader.prisma.dilutionProfile.findUnique({ where: { cik } });
    if (profile && profile.version === dilutionRulesVersion) return { builtAt: profile.builtAt };
    try {
      await reader.prisma.$transaction((tx) => materializeDilution(tx, [cik]), { timeout: 120_000 });
    } catch (error) {
      // another instance built it at the same moment: its rows are as good as ours
      if (!(await reader.prisma.dilutionProfile.findUnique({ where: { cik } }))) throw error;
    }
    const built = await reader.prisma.dilutionProfile.findUniqueOrThrow({ where: { cik } });
    return { builtAt: built.builtAt };
  });
}

export interface TableCoverage {
  table: string;
  kinds: string[];
  rows: number;
  verifiedRows: number;
  indexOnlyRows: number;
  latestDate: string | null;
}

/** Per table: rows held, rows verified (confidence high), rows known from the index alone, and the latest observation or event date. */
export async function dilutionCoverage(reader: DataReader, cik: string): Promise<{ builtAt: Date; tables: TableCoverage[] }> {
  const { builtAt } = await ensureDilution(reader, cik);
  const groups = await reader.prisma.dilutionRecord.groupBy({ by: ['kind', 'confidence', 'fromIndexOnly'], where: { cik }, _count: { _all: true }, _max: { date: true } });
  const tables = dilutionTables.map(({ table, kinds }) => {
    const mine = groups.filter((g) => (kinds as string[]).includes(g.kind));
    const latest = mine.map((g) => g._max.date).filter((d): d is Date => d instanceof Date).sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
    return {
      table,
      kinds,
      rows: mine.reduce((n, g) => n + g._count._all, 0),
      verifiedRows: mine.filter((g) => g.confidence === 'high').reduce((n, g) => n + g._count._all, 0),
      indexOnlyRows: mine.filter((g) => g.fromIndexOnly).reduce((n, g) => n + g._count._all, 0),
      latestDate: isoDay(latest),
    };
  });
  return { builtAt, tables };
}
