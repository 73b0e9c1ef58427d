// "Latest" means the newest filing EDGAR's index knows, not the newest document we happen to
// hold. When that filing's document was not ingested, a section read says so and names the
// newest ingested filing that has the section, instead of passing it off as the latest.
import type { PrismaClient } from '../prisma/db.ts';
import { ApiError } from '../core/errors.ts';
import { citationUrl, isoDay } from '../derived/citations.ts';

const describe = (f: { accessionNumber: string; cik: string; form: string; filedAt: Date | null; primaryDocument: string | null }) => ({
  accessionNumber: f.accessionNumber,
  form: f.form,
  filedAt: isoDay(f.filedAt),
  citationUrl: citationUrl(f.cik, f.accessionNumber, f.primaryDocument),
});

export async function latestFiling(prisma: PrismaClient, cik: string, form: string) {
  const filing = await prisma.filing.findFirst({ where: { cik, form }, orderBy: [{ orderedAt: 'desc' }, { accessionNumber: 'desc' }] });
  if (!filing) throw new ApiError('filing_not_found', `No ${form} of CIK ${cik} is in the filings this service has indexed.`, { details: { cik, form } });
  return filing;
}

export async function latestSection(prisma: PrismaClient, cik: string, form: string, key: string) {
  const latest = await latestFiling(prisma, cik, form);
  if (!latest.documentSourceKey) {
    const ingested = await prisma.filing.findFirst({
      where: { cik, form, documentSourceKey: { not: null }, sections: { some: { key } } },
      orderBy: [{ orderedAt: 'desc' }, { accessionNumber: 'desc' }],
    });
    throw new ApiError(
      'section_not_found',
      `The latest ${form} (${latest.accessionNumber}, filed ${isoDay(latest.filedAt)}) is known from EDGAR's index, but its document has not been ingested, so its ${key} cannot be served.` +
        (ingested ? ` The newest ingested ${form} with ${key} is ${ingested.accessionNumber}, filed ${isoDay(ingested.filedAt)}; ask for it by accession.` : ` No ingested ${form} of this company has ${key}.`),
      { details: { reason: 'document_not_ingested', latestFiling: describe(latest), ingestedFilingWithSection: ingested ? describe(ingested) : null } },
    );
  }
  const section = await prisma.section.findUnique({ where: { accessionNumber_key: { accessionNumber: latest.accessionNumber, key } } });
  if (!section) {
    const available = await prisma.section.findMany({ where: { accessionNumber: latest.accessionNumber }, select: { key: true }, orderBy: { ordinal: 'asc' } });
    throw new ApiError('section_not_found', `The latest ${form} (${latest.accessionNumber}) has no section ${key}.`, {
      details: { reason: 'not_in_document', latestFiling: describe(latest), acceptedValues: available.map((s) => s.key) },
    });
  }
  return { section, filing: latest };
}
