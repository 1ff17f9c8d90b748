import { parseWebhookJob, type WebhookJob } from '#lambdas/webhooks/rules/webhook-job';

const JOB: WebhookJob = {
  eventId: 'evt_0123456789abcdef0123456789abcdef',
  owner: 'owner-hash',
  event: { event: 'secret.viewed', timestamp: 1_750_000_000_000, data: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
};

const body = (value: unknown): string => JSON.stringify(value);

describe('parseWebhookJob', () => {
  test('reads a job as the fan-out queues it', () => {
    expect(parseWebhookJob(body(JOB))).toEqual(JOB);
  });

  test('reads a webhook.test job, whose data is {}', () => {
    const test = { ...JOB, event: { event: 'webhook.test', timestamp: 1_750_000_000_000, data: {} } };
    expect(parseWebhookJob(body(test))).toEqual(test);
    expect(parseWebhookJob(body({ ...test, event: { ...test.event, data: { id: 'x' } } }))).toEqual(test);
  });

  test('drops fields that are not part of a job, at every level', () => {
    const padded = { ...JOB, extra: 1, event: { ...JOB.event, extra: 2, data: { ...JOB.event.data, extra: 3 } } };
    expect(parseWebhookJob(body(padded))).toEqual(JOB);
  });

  test.each([
    ['not JSON', '{'],
    ['JSON that is not an object', '"job"'],
    ['an empty event id', body({ ...JOB, eventId: '' })],
    ['an empty owner', body({ ...JOB, owner: '' })],
    ['a missing owner', body({ eventId: JOB.eventId, event: JOB.event })],
    ['an unknown event', body({ ...JOB, event: { ...JOB.event, event: 'secret.deleted' } })],
    ['a fractional timestamp', body({ ...JOB, event: { ...JOB.event, timestamp: 1.5 } })],
    ['a negative timestamp', body({ ...JOB, event: { ...JOB.event, timestamp: -1 } })],
    ['a timestamp as a string', body({ ...JOB, event: { ...JOB.event, timestamp: '1750000000000' } })],
    ['an empty secret id', body({ ...JOB, event: { ...JOB.event, data: { id: '' } } })],
    ["a secret's event without its id", body({ ...JOB, event: { ...JOB.event, data: {} } })],
  ])('is undefined for %s', (_case, raw) => {
    expect(parseWebhookJob(raw)).toBeUndefined();
  });
});
