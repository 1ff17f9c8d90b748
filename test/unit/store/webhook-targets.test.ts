import '../support/env';
import type { BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { keyItemPk } from '#lambdas/definitions/tables';
import { keysWithWebhooks, webhookTarget } from '#lambdas/store/key-store';
import { mockDocumentClient, sentCommands } from '../support/dynamo';
import { TEST_ENV } from '../support/env';

const ddb = mockDocumentClient();
const keyHash = 'ab'.repeat(32);
const hashOf = (n: number): string => n.toString(16).padStart(64, '0');

beforeEach(() => ddb.reset());

/** The attribute names a projection reads, with #placeholders resolved. */
function projectedNames(input: { ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }): string[] {
  return (input.ProjectionExpression ?? '')
    .split(',')
    .map((part) => part.trim())
    .map((name) => input.ExpressionAttributeNames?.[name] ?? name)
    .sort();
}

describe('webhookTarget', () => {
  test('reads the key item consistently, only its webhook and signing secret', async () => {
    ddb.on(GetCommand).resolves({ Item: { webhook: 'https://h.example/hook', webhookSecret: 'whsec_abc' } });

    await expect(webhookTarget(keyHash)).resolves.toEqual({ url: 'https://h.example/hook', signingSecret: 'whsec_abc' });

    const sent = sentCommands(ddb);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      name: 'GetCommand',
      input: { TableName: TEST_ENV.keysTable, Key: { pk: keyItemPk(keyHash) }, ConsistentRead: true },
    });
    expect(projectedNames(sent[0]?.input ?? {})).toEqual(['webhook', 'webhookSecret']);
  });

  test('a key without a webhook has no target', async () => {
    ddb.on(GetCommand).resolves({ Item: { webhookSecret: 'whsec_abc' } });
    await expect(webhookTarget(keyHash)).resolves.toBeUndefined();
  });

  test('a key that is gone (revoked) has no target', async () => {
    ddb.on(GetCommand).resolves({});
    await expect(webhookTarget(keyHash)).resolves.toBeUndefined();
  });
});

describe('keysWithWebhooks', () => {
  /** Key items by pk; undefined: an item without a webhook. Unlisted pks have no item. */
  function serve(items: Map<string, string | undefined>, unprocessedOnce: ReadonlySet<string> = new Set()): void {
    const deferred = new Set(unprocessedOnce);
    ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
      const request = input.RequestItems?.[TEST_ENV.keysTable];
      const keys = (request?.Keys ?? []) as { pk: string }[];
      const later = keys.filter(({ pk }) => deferred.delete(pk));
      const now = keys.filter((key) => !later.includes(key) && items.has(key.pk));
      return {
        Responses: { [TEST_ENV.keysTable]: now.map(({ pk }) => ({ pk, ...(items.get(pk) ? { webhook: items.get(pk) } : {}) })) },
        ...(later.length > 0 ? { UnprocessedKeys: { [TEST_ENV.keysTable]: { ...request, Keys: later } } } : {}),
      };
    });
  }

  const batchGets = (): BatchGetCommandInput[] => ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input);

  test('no keys: no read', async () => {
    await expect(keysWithWebhooks([])).resolves.toEqual(new Set());
    expect(ddb.calls()).toHaveLength(0);
  });

  test('names the keys that have a webhook, from one consistent read of pk and webhook', async () => {
    const [withHook, withoutHook, gone] = [hashOf(1), hashOf(2), hashOf(3)];
    serve(
      new Map([
        [keyItemPk(withHook), 'https://h.example/'],
        [keyItemPk(withoutHook), undefined],
      ]),
    );

    await expect(keysWithWebhooks([withHook, withoutHook, gone])).resolves.toEqual(new Set([withHook]));

    const reads = batchGets();
    expect(reads).toHaveLength(1);
    const request = reads[0]?.RequestItems?.[TEST_ENV.keysTable];
    expect(request?.Keys).toEqual([{ pk: keyItemPk(withHook) }, { pk: keyItemPk(withoutHook) }, { pk: keyItemPk(gone) }]);
    expect(request?.ConsistentRead).toBe(true);
    expect(projectedNames(request ?? {})).toEqual(['pk', 'webhook']);
  });

  test('a key named twice is read once (BatchGetItem refuses duplicate keys)', async () => {
    serve(new Map([[keyItemPk(keyHash), 'https://h.example/']]));

    await expect(keysWithWebhooks([keyHash, keyHash])).resolves.toEqual(new Set([keyHash]));
    expect(batchGets()[0]?.RequestItems?.[TEST_ENV.keysTable]?.Keys).toEqual([{ pk: keyItemPk(keyHash) }]);
  });

  test('reads at most 100 keys per BatchGetItem, every key once', async () => {
    const hashes = Array.from({ length: 250 }, (_, n) => hashOf(n));
    serve(new Map(hashes.filter((_, n) => n % 2 === 0).map((hash) => [keyItemPk(hash), 'https://h.example/'])));

    const found = await keysWithWebhooks(hashes);

    expect(found).toEqual(new Set(hashes.filter((_, n) => n % 2 === 0)));
    const sizes = batchGets().map((input) => input.RequestItems?.[TEST_ENV.keysTable]?.Keys?.length);
    expect(sizes).toEqual([100, 100, 50]);
    const requested = batchGets().flatMap((input) => (input.RequestItems?.[TEST_ENV.keysTable]?.Keys ?? []) as { pk: string }[]);
    expect(requested.map(({ pk }) => pk).sort()).toEqual(hashes.map(keyItemPk).sort());
  });

  test('asks again for the keys DynamoDB left unprocessed, and finds their webhooks', async () => {
    const [first, second, third] = [hashOf(1), hashOf(2), hashOf(3)];
    const items = new Map([first, second, third].map((hash) => [keyItemPk(hash), 'https://h.example/']));
    serve(items, new Set([keyItemPk(second), keyItemPk(third)]));

    await expect(keysWithWebhooks([first, second, third])).resolves.toEqual(new Set([first, second, third]));

    const reads = batchGets();
    expect(reads).toHaveLength(2);
    const retry = reads[1]?.RequestItems?.[TEST_ENV.keysTable];
    expect(retry?.Keys).toEqual([{ pk: keyItemPk(second) }, { pk: keyItemPk(third) }]);
    expect(retry?.ConsistentRead).toBe(true);
    expect(projectedNames(retry ?? {})).toEqual(['pk', 'webhook']);
  });
});
