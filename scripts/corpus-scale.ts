// `npm run corpus:scale -- --factor N --out <folder> [--corpus ../shared/data]`: SEC-format
// companyfacts.zip and submissions.zip from the real corpus, each company N times (the real one
// and N - 1 synthetic copies in the reserved CIK range; see scaleCorpus.ts), for bulk ingests.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeScaleCorpus } from './scaleCorpus.ts';

const { values } = parseArgs({ options: { factor: { type: 'string', default: '1' }, out: { type: 'string' }, corpus: { type: 'string', default: '../shared/data' } } });
if (!values.out) {
  process.stderr.write('Usage: npm run corpus:scale -- --factor N --out <folder> [--corpus ../shared/data]\n');
  process.exit(1);
}
const started = performance.now();
const summary = await writeScaleCorpus({ corpus: path.resolve(values.corpus!), out: path.resolve(values.out), factor: Number(values.factor) });
console.log(
  `corpus:scale factor ${values.factor}: ${summary.companies} real companies; ${summary.members.companyfacts} companyfacts and ${summary.members.submissions} submissions members ` +
    `in ${summary.files.companyfacts} and ${summary.files.submissions} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
