import { LocalQueue } from '../../../local/queue/queue';

/** The in-memory queue itself, where the protocol cannot make a race deterministic. */

test('a long poll that ends as a message arrives does not receive it: its client is gone', async () => {
  const queue = new LocalQueue('jobs', { visibilityTimeoutMs: 60_000, retentionMs: 60_000 }, undefined);
  const hangUp = new AbortController();
  const poll = queue.receiveWaiting(10, 60_000, 20_000, hangUp.signal);

  // Both wake the poll before it looks again.
  queue.send('job', 0);
  hangUp.abort();

  expect(await poll).toEqual([]);
  const [message, ...more] = queue.receive(10, 60_000);
  expect(more).toEqual([]);
  expect(message).toMatchObject({ body: 'job', receiveCount: 1 });
});
