import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { generateApiKey, hashApiKey } from '#lambdas/rules/api-keys';
import { KEY_LIFETIME_MS } from '#contract/limits';
import { MAX_TRACKED_SLOTS } from '#lambdas/rules/sliding-window';
import { keyItemPk } from '#lambdas/definitions/tables';
import type { KeyItem } from '#lambdas/store/key-store';
import { conditionFailed, type DocumentClientMock } from './dynamo';
import { TEST_ENV } from './env';

export interface ApiKeyFixture {
  key: string;
  hash: string;
  pk: string;
}

export function apiKeyFixture(): ApiKeyFixture {
  const key = generateApiKey();
  const hash = hashApiKey(key);
  return { key, hash, pk: keyItemPk(hash) };
}

/** A key item as putKey stores it (plain attributes, as the DocumentClient returns them). */
export type KeyItemState = KeyItem;

export function keyItem(pk: string, overrides: Partial<KeyItemState> = {}): KeyItemState {
  const created = overrides.created ?? Date.now() - 60_000;
  return {
    pk,
    created,
    expires: created + KEY_LIFETIME_MS,
    ttl: Math.ceil((created + KEY_LIFETIME_MS) / 1000) + 30 * 86_400,
    webhookSecret: 'whsec_' + 'A'.repeat(32),
    rl: {},
    ...overrides,
  };
}

const values = (input: UpdateCommandInput): Record<string, unknown> => input.ExpressionAttributeValues ?? {};
const names = (input: UpdateCommandInput): Record<string, string> => input.ExpressionAttributeNames ?? {};

/**
 * Answers UpdateItem calls on the keys table for one key item the way DynamoDB would for the
 * expressions key-store sends: the authenticating fast path (SET rl.#current += 1 REMOVE
 * rl.#expired, if it exists and size(rl) <= MAX_TRACKED_SLOTS), the prune (SET rl = :slots, if it exists
 * and size(rl) > MAX_TRACKED_SLOTS) and setWebhook (SET/REMOVE webhook, if it exists); none of them tests
 * the expiry, which the store reads from the item. A failed condition throws
 * ConditionalCheckFailedException with the old item in wire format when ALL_OLD was asked for.
 * `state.item` is mutated, so a test can make several requests against the same key.
 */
export function serveKeyItem(mock: DocumentClientMock, state: { item: KeyItemState | undefined }): void {
  mock.on(UpdateCommand, { TableName: TEST_ENV.keysTable }).callsFake((input: UpdateCommandInput) => {
    const item = state.item;
    const v = values(input);
    const fail = () => conditionFailed(input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && item ? structuredClone(item) : undefined);
    // A client address's bytes of POST /secrets (store/address-bytes.ts): counted from nothing.
    if ((input.Key as { pk: string }).pk.startsWith('bytes#')) {
      if (':bytes' in v && ':maxSlots' in v) return { Attributes: { sb: { [names(input)['#slot'] as string]: v[':bytes'] } } };
      return {};
    }
    const exists = item !== undefined && (input.Key as { pk: string }).pk === item.pk;
    if (!exists || !item) throw fail();

    const expression = input.UpdateExpression ?? '';
    if (expression.includes('webhook')) {
      if (expression.startsWith('REMOVE')) delete item.webhook;
      else item.webhook = v[':webhook'] as string;
      return {};
    }
    const size = Object.keys(item.rl).length;
    if (':slots' in v) {
      if (!(size > MAX_TRACKED_SLOTS)) throw fail();
      item.rl = { ...(v[':slots'] as Record<string, number>) };
    } else {
      if (!(size <= MAX_TRACKED_SLOTS)) throw fail();
      const current = names(input)['#current'] as string;
      const expired = names(input)['#expired'] as string;
      const { [expired]: _removed, ...kept } = item.rl;
      item.rl = { ...kept, [current]: (item.rl[current] ?? 0) + (v[':one'] as number) };
      const byteSlot = names(input)['#byteSlot'];
      if (byteSlot !== undefined) item.sb = { ...item.sb, [byteSlot]: (item.sb?.[byteSlot] ?? 0) + (v[':bytes'] as number) };
    }
    return { Attributes: structuredClone(item) };
  });
}
