// The entry of the analytics worker threads (pool.ts starts them with piscina): one computation of
// tasks.ts per message, answered as an Outcome, since an ApiError would not survive the crossing
// back as one. scripts/build.mjs bundles this file as its own entry, dist/analytics-worker.js.
import { outcomeOf, type Outcome, type TaskName } from './runner.ts';
import { runTask } from './tasks.ts';

export interface TaskMessage {
  name: TaskName;
  args: unknown[];
}

export default function analyticsTask({ name, args }: TaskMessage): Promise<Outcome> {
  return outcomeOf(() => runTask(name, args));
}
