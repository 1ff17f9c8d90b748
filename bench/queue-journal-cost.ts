import { closeSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { percentile } from './stats';

/**
 * What keeping local mode's queues on disk costs per change, both ways considered in
 * docs/decisions/local-queue-durability.md: one line appended to a log, or the whole queue
 * rewritten to a temp file and renamed. Run: npx tsx bench/queue-journal-cost.ts
 */

const CHANGES = 200;
/** A webhook job as the fan-out queues it, with the fields the journal keeps beside it. */
const message = (index: number) => ({
  messageId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  body: JSON.stringify({
    eventId: `evt_${'0'.repeat(32)}`,
    owner: 'f'.repeat(64),
    event: { event: 'secret.created', timestamp: Date.now(), data: { id: 'A'.repeat(22) } },
  }),
  md5OfBody: '0'.repeat(32),
  sentTimestamp: Date.now(),
  receiveCount: 1,
  firstReceiveTimestamp: Date.now(),
  visibleAt: Date.now(),
  leased: true,
  deadLetterSourceQueue: undefined,
});

function timeEach(work: (change: number) => void): number[] {
  const times: number[] = [];
  for (let change = 0; change < CHANGES; change++) {
    const started = performance.now();
    work(change);
    times.push(performance.now() - started);
  }
  return times;
}

const directory = mkdtempSync(path.join(tmpdir(), 'queue-journal-cost-'));
try {
  console.log('| messages in the queue | append one line: p50 / p99 ms | rewrite + rename: p50 / p99 ms |');
  console.log('| ---: | ---: | ---: |');
  for (const size of [150, 1_000, 10_000]) {
    const queue = Array.from({ length: size }, (_, index) => message(index));
    const log = openSync(path.join(directory, `log-${size}`), 'w');
    const appended = timeEach((change) => {
      writeSync(log, `${JSON.stringify({ queue: 'jobs', put: queue[change % size] })}\n`);
    });
    closeSync(log);
    const snapshot = path.join(directory, `snapshot-${size}.json`);
    const rewritten = timeEach(() => {
      writeFileSync(`${snapshot}.tmp`, JSON.stringify({ queues: { jobs: queue } }));
      renameSync(`${snapshot}.tmp`, snapshot);
    });
    const cell = (times: number[]) => `${percentile(times, 50).toFixed(3)} / ${percentile(times, 99).toFixed(3)}`;
    console.log(`| ${size} | ${cell(appended)} | ${cell(rewritten)} |`);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
