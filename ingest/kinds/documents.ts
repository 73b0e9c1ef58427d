// Filing documents: 10-K/10-Q (sections and inline XBRL facts), 8-K (events), offering
// documents (cover pages), proxy statements; the primary document of each but the proxy is kept
// for the reader. A corpus file or an SEC archive path names the accession; a full submission
// (.txt) also carries the filing's header.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { namedInPath } from '../classify.ts';
import { handler, withinTransaction, type Tx } from '../handlers.ts';
import { ensureEntities } from '../load/entities.ts';
import { writeDocumentEvents, type EventFields } from '../load/events.ts';
import { loadFacts } from '../load/facts.ts';
import { markDocumentIngested, upsertFilings } from '../load/filings.ts';
import { packDocument, storeFilingDocument } from '../load/documents.ts';
import { saveFormRecord } from '../load/forms.ts';
import { parseEightK } from '../parsers/eightK/eightK.ts';
import { parseSixK } from '../parsers/sixK/sixK.ts';
import { parseOffering } from '../parsers/offerings/offerings.ts';
import { dilutionTermsOfFiling } from '../parsers/offerings/dilutionTerms.ts';
import { dilutionRelevant, materializeDilution } from '../../derived/dilution/materialize.ts';
import { isSgmlSubmission, parseSgmlSubmission } from '../parsers/documents/sgml.ts';
import { splitSections } from '../parsers/documents/sections.ts';
import { parseInlineXbrl } from '../parsers/xbrl/xbrlInstance.ts';
import { parseProxyStatement } from '../parsers/proxy/proxyStatement.ts';

/** The filing a document belongs to: known from the index, or described by the document's own header. */
async function filingFor(
  tx: Tx,
  key: string,
  header: { accessionNumber: string | null; cik: string | null; form: string | null; filedAt: string | null; reportDate?: string | null; acceptedAt?: string | null; primaryDocument?: string | null },
) {
  const accessionNumber = header.accessionNumber ?? namedInPath(key).accessionNumber;
  if (!accessionNumber) return { filing: null, events: [] };
  const known = await tx.filing.findUnique({ where: { accessionNumber } });
  if (known) return { filing: known, events: [] };
  if (!header.cik || !header.form) {
    throw new Error(`filing ${accessionNumber} is not in the index and its document does not say who filed it; ingest the company's submissions first`);
  }
  // Known only from its document: the filing date stays unknown (null) until an index names it.
  // The handler builds the filer's dilution records once it has loaded the document, not before.
  await ensureEntities(tx, [{ cik: header.cik, name: null }]);
  const filed = { accessionNumber, cik: header.cik, form: header.form, filedAt: header.filedAt, reportDate: header.reportDate ?? null, acceptedAt: header.acceptedAt ?? null, primaryDocument: header.primaryDocument ?? null };
  const { events } = await upsertFilings(withinTransaction(tx), [filed], undefined, { buildDilution: false });
  return { filing: await tx.filing.findUniqueOrThrow({ where: { accessionNumber } }), events };
}

/** The primary HTML of a document: the file itself, or the first document of a full submission. */
function primaryHtml(text: string) {
  if (!isSgmlSubmission(text)) return { html: text, header: null, fileName: null };
  const submission = parseSgmlSubmission(text);
  const company = submission.filers[0] ?? submission.subjectCompanies[0] ?? null;
  return {
    html: submission.documents[0]?.text ?? '',
    fileName: submission.documents[0]?.filename ?? null,
    header: { accessionNumber: submission.accessionNumber, cik: company?.cik ?? null, form: submission.formType, filedAt: submission.filedAt },
  };
}

/** Section text a step writes (its search vector is built as it is written): a few tens of milliseconds on the embedded database. */
const sectionCharsPerStep = 100_000;

/** Consecutive runs of rows whose text adds up to about `chars` (a longer row is a run of its own). */
function bySize<R extends { charCount: number }>(rows: R[], chars: number): R[][] {
  const runs: R[][] = [];
  let size = Infinity;
  for (const row of rows) {
    if (size + row.charCount > chars) {
      runs.push([]);
      size = 0;
    }
    runs.at(-1)!.push(row);
    size += row.charCount;
  }
  return runs;
}

export const periodicReportHandler = handler({
  parse: ({ key, name, text, form: indexedForm }) => {
    const { html, header, fileName } = primaryHtml(text);
    const named = namedInPath(key);
    const form = header?.form ?? indexedForm ?? named.form;
    if (!form) throw new Error('cannot tell whether this is a 10-K or a 10-Q');
    return { html, header: header ?? { ...named, form, filedAt: null }, form, sections: splitSections(form, html), document: packDocument(html, fileName ?? name) };
  },
  // the inline XBRL is read against the filing as load will find it (the index's, else the one the
  // document's header describes), before the transaction
  async prepare(db, parsed, { key }) {
    const accessionNumber = parsed.header.accessionNumber ?? namedInPath(key).accessionNumber;
    const known = accessionNumber ? await db.filing.findUnique({ where: { accessionNumber }, select: { form: true, filedAt: true } }) : null;
    const filing = known ? { form: known.form, filedAt: known.filedAt?.toISOString().slice(0, 10) ?? null } : { form: parsed.header.form ?? parsed.form, filedAt: parsed.header.filedAt };
    return { ...parsed, inline: accessionNumber ? parseInlineXbrl(parsed.html, { accessionNumber, ...filing }) : null };
  },
  // the sections (the first time, a few a step), the document, then the inline XBRL facts, each in steps of their own
  async loadInSteps(step, parsed, { key }) {
    const { inline } = parsed;
    const { filing, events, held } = await step(async (tx) => {
      const { filing, events } = await filingFor(tx, key, parsed.header);
      if (!filing || !inline) throw new Error('no accession number in the file name or the document');
      return { filing, events, held: (await tx.section.count({ where: { accessionNumber: filing.accessionNumber } })) > 0 };
    });
    const rows = parsed.sections.map((s) => ({ accessionNumber: filing.accessionNumber, key: s.key, title: s.title, text: s.text, ordinal: s.ordinal, charCount: s.text.length }));
    // sections read again replace the stored ones in one step: no read sees a filing's sections half replaced
    if (held) {
      await step(async (tx) => {
        await tx.section.deleteMany({ where: { accessionNumber: filing.accessionNumber } });
        await tx.section.createMany({ data: rows });
      });
    } else {
      for (const batch of bySize(rows, sectionCharsPerStep)) await step((tx) => tx.section.createMany({ data: batch }));
    }
    await step((tx) => markDocumentIngested(tx, filing.accessionNumber, key));
    // the document the sections came from, for the reader (GET /v1/filings/{accession_number}/render)
    await step((tx) => storeFilingDocument(tx, filing.accessionNumber, { ...parsed.document, fileName: filing.primaryDocument ?? parsed.document.fileName }));
    const facts = inline!.facts.length ? await loadFacts(step, inline!.facts, inline!.concepts, 'inline_xbrl') : 0;
    return { records: parsed.sections.length + facts + 1, events };
  },
});

export const currentReportHandler = handler({
  parse: ({ text, name }) => {
    const primary = primaryHtml(text);
    // the document itself, for the reader: each event's sentence is opened and marked there
    return { report: parseEightK({ text, name }), stored: packDocument(primary.html, primary.fileName ?? name) };
  },
  async load(tx, { report, stored }, { key }) {
    const accessionNumber = report.accessionNumber ?? namedInPath(key).accessionNumber;
    const { filing, events: added } = await filingFor(tx, key, { accessionNumber, cik: report.company.cik, form: report.formType, filedAt: report.filedAt, reportDate: report.periodOfReport });
    if (filing) {
      await markDocumentIngested(tx, filing.accessionNumber, key, report.items);
      await storeFilingDocument(tx, filing.accessionNumber, { ...stored, fileName: filing.primaryDocument ?? stored.fileName });
    }
    const cik = filing?.cik ?? report.company.cik;
    if (cik) await ensureEntities(tx, [{ cik, name: report.company.name }]);
    const events: EventFields[] = report.events.map((event) => ({
      accessionNumber: filing?.accessionNumber ?? null,
      cik,
      item: event.item,
      type: event.type,
      eventDate: report.periodOfReport,
      filedAt: filing?.filedAt ? filing.filedAt.toISOString().slice(0, 10) : report.filedAt,
      confidence: 'confidence' in event ? (event.confidence as string) : 'parsingConfidence' in event ? (event.parsingConfidence as string) : null,
      // the filing's press releases ride on each of its events (news headlines read them): null = not read
      data: { ...event, company: report.company, pressReleases: report.pressReleases } as unknown as Prisma.InputJsonValue,
    }));
    const written = await writeDocumentEvents(tx, events, key);
    // compliance notices, charter amendments and securities sales are dilution records of the filer,
    // read from these items' text (and, for the items the index named before, that the document was read)
    if (filing && dilutionRelevant({ form: filing.form, items: [...filing.items, ...report.items] })) await materializeDilution(tx, [filing.cik]);
    return { records: written + (filing ? 1 : 0), events: added };
  },
});

/**
 * 6-K: one event for the report (it has no items) carrying its own words and its EX-99 exhibits,
 * which is what a news story reads (resolvers/news.ts).
 */
export const foreignReportHandler = handler({
  parse: ({ text, name, form }) => {
    const primary = primaryHtml(text);
    return { report: parseSixK({ text, name }, form ?? null), stored: packDocument(primary.html, primary.fileName ?? name) };
  },
  async load(tx, { report, stored }, { key }) {
    const accessionNumber = report.accessionNumber ?? namedInPath(key).accessionNumber;
    // known from this document alone, the filing is cited by its primary document and dated by its acceptance
    const { filing, events: added } = await filingFor(tx, key, { accessionNumber, cik: report.company.cik, form: report.formType, filedAt: report.filedAt, reportDate: report.periodOfReport, acceptedAt: report.acceptedAt, primaryDocument: report.primaryDocument });
    if (filing) {
      await markDocumentIngested(tx, filing.accessionNumber, key);
      await storeFilingDocument(tx, filing.accessionNumber, { ...stored, fileName: filing.primaryDocument ?? stored.fileName });
    }
    const cik = filing?.cik ?? report.company.cik;
    if (cik) await ensureEntities(tx, [{ cik, name: report.company.name }]);
    const { excerpt, title, company, pressReleases } = report;
    const written = await writeDocumentEvents(
      tx,
      [{
        accessionNumber: filing?.accessionNumber ?? null,
        cik,
        item: null,
        type: 'other',
        eventDate: report.periodOfReport,
        filedAt: filing?.filedAt ? filing.filedAt.toISOString().slice(0, 10) : report.filedAt,
        confidence: null,
        data: { form: report.formType, excerpt, title, company, pressReleases } as unknown as Prisma.InputJsonValue,
      }],
      key,
    );
    return { records: written + (filing ? 1 : 0), events: added };
  },
});

export const offeringHandler = handler({
  parse: ({ text, name }) => {
    // the dilution family's terms (derived/dilution/materialize.ts reads them from the record)
    const { terms, document } = dilutionTermsOfFiling({ text, name });
    // the document itself, for the reader: a dilution record's sentence is opened and marked there
    const primary = primaryHtml(text);
    return { offering: { ...(document ?? parseOffering({ text, name })), dilutionTerms: terms }, stored: packDocument(primary.html, primary.fileName ?? name) };
  },
  async load(tx, { offering, stored }, { key }) {
    const accessionNumber = offering.accessionNumber ?? namedInPath(key).accessionNumber;
    const { filing, events: added } = await filingFor(tx, key, { accessionNumber, cik: offering.registrant.cik, form: offering.formType, filedAt: offering.filedAt });
    // a primary document read alone names no CIK; its cover names the ticker it trades under, which the
    // SEC's ticker maps tie to one company (several: not attributed)
    const byTicker = !filing && !offering.registrant.cik && offering.ticker ? [...new Set((await tx.ticker.findMany({ where: { ticker: offering.ticker.toUpperCase() }, select: { cik: true } })).map((t) => t.cik))] : [];
    const cik = filing?.cik ?? offering.registrant.cik ?? (byTicker.length === 1 ? byTicker[0]! : null);
    if (cik) await ensureEntities(tx, [{ cik, name: offering.registrant.name }]);
    const filedAt = filing?.filedAt?.toISOString().slice(0, 10) ?? offering.filedAt;
    await saveFormRecord(tx, { accessionNumber, family: 'OFFERING', formType: offering.formType, cik, filedAt, documentDate: offering.documentDate ?? null, parties: [{ cik, name: offering.registrant.name, role: 'issuer' }], data: offering }, key);
    if (filing) {
      await markDocumentIngested(tx, filing.accessionNumber, key);
      await storeFilingDocument(tx, filing.accessionNumber, { ...stored, fileName: filing.primaryDocument ?? stored.fileName });
    }
    const written = await writeDocumentEvents(
      tx,
      [{ accessionNumber, cik, item: null, type: 'offering', eventDate: null, filedAt, confidence: offering.confidence ?? null, data: offering as unknown as Prisma.InputJsonValue }],
      key,
    );
    // a term the document could not give is reported on the item (status partial), never guessed
    const warnings = offering.dilutionTerms.failures.map((failure) => `dilution terms: ${failure}`);
    // an offering no company can be named for is stored, but no company's offerings or dilution records show it
    if (!cik) warnings.push(`no issuer CIK: the document names none, and ${offering.ticker ? `its ticker ${offering.ticker} ${byTicker.length ? `maps to ${byTicker.length} companies` : 'is in no ticker map held'}` : 'it names no ticker'}; ingest its submission or the ticker map first`);
    return { records: 1 + written, events: added, ...(warnings.length ? { warnings } : {}) };
  },
});

/** The cover facts inline XBRL marks as text (dei), which the numeric fact parser leaves out. */
const coverText = (html: string, name: string) => html.match(new RegExp(`name="dei:${name}"[^>]*>([^<]+)<`))?.[1]?.replace(/\s+/g, ' ').trim() ?? null;

/**
 * DEF 14A: the registrant, its pay-versus-performance table (the ecd inline XBRL and the
 * us-gaap:NetIncomeLoss it shows, each value with its tag and contextRef; the ecd text facts naming
 * the company-selected measure, the most important measures and the PEO) and the director
 * nominees of the election-of-directors proposal, as filed (ingest/parsers/proxy/proxyStatement.ts).
 */
export const proxyHandler = handler({
  parse: ({ key, text }) => {
    const { html, header } = primaryHtml(text);
    const accessionNumber = header?.accessionNumber ?? namedInPath(key).accessionNumber;
    const cik = header?.cik ?? coverText(html, 'EntityCentralIndexKey');
    if (!cik) throw new Error('a proxy statement without the registrant\'s CIK cannot be attributed');
    const { payVersusPerformance, payVersusPerformanceText, directorNominees, skipped } = parseProxyStatement(html);
    return {
      accessionNumber,
      filedAt: header?.filedAt ?? null,
      registrant: { cik: cik.padStart(10, '0'), name: header ? null : coverText(html, 'EntityRegistrantName') },
      payVersusPerformance,
      payVersusPerformanceText,
      directorNominees,
      skipped,
    };
  },
  async load(tx, { skipped, ...proxy }, { key }) {
    await ensureEntities(tx, [{ cik: proxy.registrant.cik, name: proxy.registrant.name }]);
    const { accessionNumber, filedAt, registrant } = proxy;
    await saveFormRecord(tx, { accessionNumber, family: 'PROXY', formType: 'DEF 14A', cik: registrant.cik, filedAt, parties: [{ ...registrant, role: 'issuer' }], data: proxy }, key);
    const warnings = [
      ...skipped.map((s) => `inline XBRL ${s.tag} (${s.contextRef}) left out: ${s.reason}`),
      ...proxy.directorNominees.disagreements.map((d) => `director nominees: ${d}`),
    ];
    return { records: 1, events: [], ...(warnings.length ? { warnings } : {}) };
  },
});
