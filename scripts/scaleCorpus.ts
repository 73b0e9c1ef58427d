// Writes SEC-format nightly archives (companyfacts.zip, submissions.zip: one CIK##########.json a
// company, plus overflow pages CIK##########-submissions-001.json) from the real corpus, each real
// company copied `factor` times: once as itself (its files byte for byte), and factor - 1 times as
// a synthetic company. Archives are written member by member (yazl asks for a member's bytes only
// when it reaches it), so only one real file and one copy of it are ever in memory.
//
// Synthetic companies live in a range the SEC has not assigned: CIKs from 9000000000 upward.
// Copy k (1..factor-1) of the j-th real company (0-based, in CIK order over both archives, U of
// them) is CIK 9000000000 + (k - 1)·U + j. Its names carry "(synthetic copy k)", its tickers the
// class-share suffix "-k" (AAPL-1), which reads by ticker resolve like any other. Values, periods, forms and dates are the real ones, as text, untouched.
// Accession numbers are unique across EDGAR (Filing rows are keyed by them), so a copy cites
// accessions of its own: the filer prefix (the first 10 digits) becomes 9000000000 + p·1000 + (k - 1),
// p numbering the real prefixes in the order first met; the year and sequence stay.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

export const syntheticCikBase = 9_000_000_000;

export interface ScaleOptions {
  /** the real corpus, laid out like ../shared/data (companyfacts/, submissions/) */
  corpus: string;
  out: string;
  factor: number;
  /** only these real companies (10-digit CIKs); all by default */
  ciks?: string[];
}

export interface ScaleSummary {
  companies: number;
  members: { companyfacts: number; submissions: number };
  files: { companyfacts: string; submissions: string };
  /** real CIK -> the CIKs of its synthetic copies, copy 1 first */
  copies: Record<string, string[]>;
}

interface RealFile {
  kind: 'companyfacts' | 'submissions';
  file: string;
  name: string;
  cik: string;
}

export async function writeScaleCorpus(options: ScaleOptions): Promise<ScaleSummary> {
  const { factor } = options;
  if (!Number.isInteger(factor) || factor < 1 || factor > 1000) throw new Error('--factor must be a whole number from 1 to 1000');
  const real = [...(await realFiles(options, 'submissions')), ...(await realFiles(options, 'companyfacts'))];
  const companies = [...new Set(real.map((f) => f.cik))].sort();
  if (!companies.length) throw new Error(`no companyfacts or submissions files in ${options.corpus}${options.ciks ? ' for those CIKs' : ''}`);
  if (companies.length * (factor - 1) >= 1_000_000_000) throw new Error('too many synthetic companies for the reserved CIK range');
  const ordinal = new Map(companies.map((cik, j) => [cik, j]));
  const syntheticCik = (cik: string, k: number) => String(syntheticCikBase + (k - 1) * companies.length + ordinal.get(cik)!);
  const accessions = new AccessionMap();

  await mkdir(options.out, { recursive: true });
  const summary: ScaleSummary = { companies: companies.length, members: { companyfacts: 0, submissions: 0 }, files: { companyfacts: '', submissions: '' }, copies: {} };
  for (const cik of companies) summary.copies[cik] = Array.from({ length: factor - 1 }, (_, i) => syntheticCik(cik, i + 1).padStart(10, '0'));
  for (const kind of ['submissions', 'companyfacts'] as const) {
    const zip = new yazl.ZipFile();
    const target = path.join(options.out, `${kind}.zip`);
    const written = finished(zip.outputStream.pipe(createWriteStream(target)));
    let current: { file: string; text: string } | undefined;
    const textOf = async (file: string) => {
      if (current?.file !== file) current = { file, text: await readFile(file, 'utf8') };
      return current.text;
    };
    for (const f of real.filter((r) => r.kind === kind)) {
      for (let k = 0; k < factor; k++) {
        const cik = k === 0 ? f.cik : syntheticCik(f.cik, k).padStart(10, '0');
        const name = f.name.replace(/CIK\d{10}/, `CIK${cik}`);
        zip.addReadStreamLazy(name, (done) => {
          textOf(f.file).then(
            (text) => done(null, Readable.from([k === 0 ? text : syntheticCopy(f, text, cik, k, accessions)])),
            (error: unknown) => done(error, Readable.from([])),
          );
        });
        summary.members[kind]++;
      }
    }
    zip.end();
    await written;
    summary.files[kind] = target;
  }
  return summary;
}

async function realFiles(options: ScaleOptions, kind: RealFile['kind']): Promise<RealFile[]> {
  const folder = path.join(options.corpus, kind);
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => /^CIK\d{10}(-submissions-\d+)?\.json$/.test(n)).sort();
  return names
    .map((name) => ({ kind, name, file: path.join(folder, name), cik: name.slice(3, 13) }))
    .filter((f) => !options.ciks || options.ciks.includes(f.cik));
}

/** Accession filer prefixes numbered in the order first met, so copies never collide with each other or with EDGAR. */
class AccessionMap {
  private prefixes = new Map<string, number>();

  synthetic(prefix: string, k: number): string {
    let p = this.prefixes.get(prefix);
    if (p === undefined) this.prefixes.set(prefix, (p = this.prefixes.size));
    if (p >= 1_000_000) throw new Error('more accession prefixes than the synthetic range holds');
    return String(syntheticCikBase + p * 1000 + (k - 1));
  }
}

const accessionPattern = /"(\d{10})-(\d{2})-(\d{6})"/g;
const stringPattern = '"((?:[^"\\\\]|\\\\.)*)"';

/** The real file as copy k under `cik`: its identity rewritten in the text, everything else byte for byte. */
function syntheticCopy(f: RealFile, text: string, cik: string, k: number, accessions: AccessionMap): string {
  const mark = (name: string) => `${name} (synthetic copy ${k})`;
  let out = text.replace(/"cik"(\s*):(\s*)("?)\d+("?)/, (_m, a: string, b: string, q1: string, q2: string) => `"cik"${a}:${b}${q1}${q1 ? cik : Number(cik)}${q2}`);
  if (f.kind === 'companyfacts') {
    out = out.replace(new RegExp(`"entityName"(\\s*):(\\s*)${stringPattern}`), (_m, a: string, b: string, name: string) => `"entityName"${a}:${b}${JSON.stringify(mark(JSON.parse(`"${name}"`)))}`);
  } else {
    out = out.replace(new RegExp(`"name"(\\s*):(\\s*)${stringPattern}`), (_m, a: string, b: string, name: string) => `"name"${a}:${b}${JSON.stringify(mark(JSON.parse(`"${name}"`)))}`);
    out = out.replace(/"tickers"(\s*):(\s*)\[([^\]]*)\]/, (_m, a: string, b: string, list: string) => `"tickers"${a}:${b}[${list.replace(/"([^"]+)"/g, (_t, ticker: string) => `"${ticker}-${k}"`)}]`);
    out = out.replace(/CIK\d{10}-submissions-(\d+)\.json/g, (_m, page: string) => `CIK${cik}-submissions-${page}.json`);
  }
  out = out.replace(accessionPattern, (_m, prefix: string, year: string, sequence: string) => `"${accessions.synthetic(prefix, k)}-${year}-${sequence}"`);
  if (k === 1) checkCopy(f, out, cik);
  return out;
}

/** The rewrite touched the company's own header, not a look-alike deeper in the file (checked on the first copy of each file). */
function checkCopy(f: RealFile, text: string, cik: string): void {
  const doc = JSON.parse(text) as { cik?: unknown; name?: unknown; entityName?: unknown; accessionNumber?: unknown };
  const overflow = f.kind === 'submissions' && Array.isArray(doc.accessionNumber);
  const ok = overflow || (String(doc.cik).padStart(10, '0') === cik && /\(synthetic copy \d+\)$/.test(String(f.kind === 'companyfacts' ? doc.entityName : doc.name)));
  if (!ok) throw new Error(`${f.name}: could not rewrite the company header for the synthetic copy`);
}
