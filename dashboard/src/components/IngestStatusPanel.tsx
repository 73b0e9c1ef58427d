// What the service's data holds and whether a load is running (the graph's ingestStatus, as GET
// /v1/ingest/status answers it): the loads moving now with their progress, how the last one
// ended, and any that stopped without finishing.
import { graphql, useFragment, type FragmentType } from '../gql';
import { formatDateTime, formatNumber } from '../format.ts';

export const IngestStatusFragment = graphql(`
  fragment IngestStatusPanel on IngestStatus {
    state
    checkedAt
    running {
      ...IngestRunSummary
    }
    lastFinished {
      ...IngestRunSummary
    }
    interrupted {
      ...IngestRunSummary
    }
  }
`);

const RunFragment = graphql(`
  fragment IngestRunSummary on IngestRunProgress {
    id
    source
    state
    startedAt
    finishedAt
    total
    read
    written
    skipped
    failed
    records
    fraction
    secondsLeft
  }
`);

function RunLine(props: { run: FragmentType<typeof RunFragment> }) {
  const run = useFragment(RunFragment, props.run);
  const counts = `${formatNumber(run.read)} of ${formatNumber(run.total)} items read, ${formatNumber(run.written)} written, ${formatNumber(run.skipped)} unchanged, ${formatNumber(run.failed)} failed; ${formatNumber(run.records)} records written`;
  const when =
    run.state === 'running'
      ? `started ${formatDateTime(run.startedAt)}${run.fraction === null ? ', listing its items' : `, ${Math.round(run.fraction * 100)}% done`}${run.secondsLeft === null ? '' : `, about ${formatNumber(Math.ceil(run.secondsLeft / 60))} min left`}`
      : run.state === 'finished'
        ? `finished ${formatDateTime(run.finishedAt)}`
        : `stopped moving after ${formatDateTime(run.startedAt)}`;
  return (
    <li className="ingest-run" data-run={run.id}>
      <code>{run.source}</code>: {when}. {counts}.
    </li>
  );
}

const stateWords = { running: 'A load is running.', idle: 'No load is running.', never_run: 'Nothing has been loaded into this service’s database yet.' } as const;

export function IngestStatusPanel(props: { status: FragmentType<typeof IngestStatusFragment> }) {
  const status = useFragment(IngestStatusFragment, props.status);
  return (
    <div className="card ingest-status">
      <p className="big ingest-state">{stateWords[status.state]}</p>
      {status.running.length ? (
        <ul aria-label="Loads running now">
          {status.running.map((run, i) => (
            <RunLine key={i} run={run} />
          ))}
        </ul>
      ) : null}
      {status.lastFinished ? (
        <>
          <p>The last load that finished:</p>
          <ul aria-label="The last finished load">
            <RunLine run={status.lastFinished} />
          </ul>
        </>
      ) : null}
      {status.interrupted.length ? (
        <>
          <p>Stopped without finishing (the next load picks up where they left off):</p>
          <ul aria-label="Loads that stopped">
            {status.interrupted.map((run, i) => (
              <RunLine key={i} run={run} />
            ))}
          </ul>
        </>
      ) : null}
      <p className="muted">Checked {formatDateTime(status.checkedAt)}.</p>
    </div>
  );
}
