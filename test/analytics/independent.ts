// What the analytics suites compute on their own from the corpus files, to check the service
// against (never the service's code), and the service they check: one on a database of its own,
// loaded with just the files a suite names.
import { runIngest } from '../../ingest/run.ts';
import { corpusFile } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

/** A service holding these corpus files (name → path), an organization that may run analytics, and the files' texts. */
export async function marketSuite<N extends string>(files: Record<N, string>, orgName: string): Promise<{ t: TestService; key: string; texts: Record<N, string> }> {
  const texts = {} as Record<N, string>;
  for (const [name, file] of Object.entries(files) as [N, string][]) texts[name] = await corpusFile(file);
  const t = await startIsolatedService(); // market files of its own: other suites load and change them
  const { key } = await orgWithKey(t, orgName, 'team');
  await runIngest(t.service.services, fixtureSource(Object.fromEntries((Object.entries(files) as [N, string][]).map(([name, file]) => [file, { text: texts[name] }]))));
  return { t, key, texts };
}

/** date → daily return, where the file has a close on the date and on its previous row. */
export function returnsOf(text: string): Map<string, number> {
  const rows = text.split(/\r?\n/).slice(1).map((l) => l.split(',')).filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c[0]!.slice(0, 10)) && c[4]);
  const out = new Map<string, number>();
  for (let i = 1; i < rows.length; i++) out.set(rows[i]![0]!.slice(0, 10), Number(rows[i]![4]) / Number(rows[i - 1]![4]) - 1);
  return out;
}

/** date → close, from the price file. */
export function closesOf(text: string): Map<string, number> {
  const rows = text.split(/\r?\n/).slice(1).map((l) => l.split(',')).filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c[0]!.slice(0, 10)) && c[4]);
  return new Map(rows.map((r) => [r[0]!.slice(0, 10), Number(r[4])]));
}

/** date → factor → fraction, from a Ken French daily file (YYYYMMDD rows under the header naming them). */
export function factorsOf(text: string): Map<string, Record<string, number>> {
  const lines = text.split(/\r?\n/);
  const header = lines.findIndex((l) => /^\s*,/.test(l));
  const names = lines[header]!.split(',').slice(1).map((n) => n.trim());
  const out = new Map<string, Record<string, number>>();
  for (const line of lines.slice(header + 1)) {
    const cells = line.split(',').map((c) => c.trim());
    if (!/^\d{8}$/.test(cells[0]!)) continue;
    const date = `${cells[0]!.slice(0, 4)}-${cells[0]!.slice(4, 6)}-${cells[0]!.slice(6)}`;
    out.set(date, Object.fromEntries(names.map((n, i) => [n, Number(cells[i + 1]) / 100])));
  }
  return out;
}

/** OLS with intercept by the normal equations, solved by Gaussian elimination with partial pivoting. */
export function normalEquations(y: number[], columns: number[][]): number[] {
  const X = y.map((_, t) => [1, ...columns.map((c) => c[t]!)]);
  const k = X[0]!.length;
  const A = Array.from({ length: k }, (_, i) => [...Array.from({ length: k }, (_, j) => X.reduce((s, row) => s + row[i]! * row[j]!, 0)), X.reduce((s, row, t) => s + row[i]! * y[t]!, 0)]);
  for (let col = 0; col < k; col++) {
    const pivot = A.slice(col).reduce((best, row, i) => (Math.abs(row[col]!) > Math.abs(A[best]![col]!) ? col + i : best), col);
    [A[col], A[pivot]] = [A[pivot]!, A[col]!];
    for (let r = col + 1; r < k; r++) {
      const f = A[r]![col]! / A[col]![col]!;
      for (let c = col; c <= k; c++) A[r]![c]! -= f * A[col]![c]!;
    }
  }
  const b = new Array<number>(k).fill(0);
  for (let r = k - 1; r >= 0; r--) b[r] = (A[r]![k]! - A[r]!.slice(r + 1, k).reduce((s, v, i) => s + v * b[r + 1 + i]!, 0)) / A[r]![r]!;
  return b;
}
