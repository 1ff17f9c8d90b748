import { LocalQueue } from '#local/queue/queue';

/** The in-memory queue itself, where the protocol cannot make a race deterministic. */

/** A short poll, as ReceiveMessage without WaitTimeSeconds: what is visible now, or nothing. */
const receiveNow = (queue: LocalQueue, visibilityTimeoutMs: number) => queue.receiveWaiting(10, visibilityTimeoutMs, 0, new AbortController().signal);

test('a long poll that ends as a message arrives does not receive it: its client is gone', async () => {
  const queue = new LocalQueue('jobs', { visibilityTimeoutMs: 60_000, retentionMs: 60_000 }, undefined);
  const hangUp = new AbortController();
  const poll = queue.receiveWaiting(10, 60_000, 20_000, hangUp.signal);

  // Both wake the poll before it looks again.
  queue.send('job', 0);
  hangUp.abort();

  expect(await poll).toEqual([]);
  const [message, ...more] = await receiveNow(queue, 60_000);
  expect(more).toEqual([]);
  expect(message).toMatchObject({ body: 'job', receiveCount: 1 });
});

test('a long poll already waiting receives a message as soon as a shortened visibility timeout runs out', async () => {
  jest.useFakeTimers({ now: 1_000_000 });
  try {
    const queue = new LocalQueue('jobs', { visibilityTimeoutMs: 120_000, retentionMs: 600_000 }, undefined);
    queue.send('job', 0);
    const [first] = await receiveNow(queue, 120_000);
    const poll = queue.receiveWaiting(10, 120_000, 20_000, new AbortController().signal);
    let received: unknown;
    void poll.then((messages) => (received = messages));

    // The delivery function delays its retry by 4 s, far sooner than the 120 s it held the message for.
    queue.changeVisibility(first!.receiptHandle, 4_000);
    await jest.advanceTimersByTimeAsync(4_000);

    expect(received).toEqual([expect.objectContaining({ body: 'job', receiveCount: 2 })]);
  } finally {
    jest.useRealTimers();
  }
});

test('a long poll already waiting receives a delayed message sent meanwhile as soon as its delay runs out', async () => {
  jest.useFakeTimers({ now: 1_000_000 });
  try {
    const queue = new LocalQueue('consumed-secrets', { visibilityTimeoutMs: 180_000, retentionMs: 600_000 }, undefined);
    const poll = queue.receiveWaiting(10, 180_000, 20_000, new AbortController().signal);
    let received: unknown;
    void poll.then((messages) => (received = messages));

    // A deletion due in 5 s, sent while the poll waits out its 20 s.
    queue.send('secret', 5_000);
    await jest.advanceTimersByTimeAsync(5_000);

    expect(received).toEqual([expect.objectContaining({ body: 'secret', receiveCount: 1 })]);
  } finally {
    jest.useRealTimers();
  }
});

test('a long poll that wakes a moment before a message is back, and looks as it comes back, receives it then', async () => {
  jest.useFakeTimers({ now: 1_000_000 });
  try {
    const queue = new LocalQueue('jobs', { visibilityTimeoutMs: 300, retentionMs: 60_000 }, undefined);
    queue.send('job', 0);
    await receiveNow(queue, 300);
    const poll = queue.receiveWaiting(10, 300, 20_000, new AbortController().signal);
    let received: unknown;
    void poll.then((messages) => (received = messages));

    // Node's timers run on a clock of their own, and may fire a millisecond before Date.now()
    // reaches the time they were set for; here the poll's timer does, and the message comes back
    // while the poll looks.
    jest.setSystemTime(Date.now() - 1);
    const readClock = Date.now;
    let comesBackOnNextReading = true;
    jest.spyOn(Date, 'now').mockImplementation(() => {
      const now = readClock();
      if (comesBackOnNextReading) {
        comesBackOnNextReading = false;
        jest.setSystemTime(now + 1);
      }
      return now;
    });
    await jest.advanceTimersByTimeAsync(310);

    expect(received).toEqual([expect.objectContaining({ body: 'job', receiveCount: 2 })]);
  } finally {
    jest.restoreAllMocks();
    jest.useRealTimers();
  }
});
