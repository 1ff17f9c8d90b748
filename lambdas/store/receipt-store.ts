import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { RECEIPT_LIFETIME_MS } from '#contract/limits';
import { RECEIPT_READ_ATTRIBUTES, SECRETS_TABLE, SECRET_ATTRIBUTES as A, SECRET_HEAD_SK, SECRET_RECEIPT_SK } from '../definitions/tables';
import type { Receipt, ReceiptFacts } from '../rules/receipt';
import { batchGetAll } from './batches';
import { dynamo, epochSeconds, tableName } from './dynamo';
import { NOT_APPLIED, readForSettling, settledWrite } from './settled-write';

/**
 * Receipts (docs/decisions/receipts.md): while a secret's head exists, its receipt is read off the
 * head; once the head is deleted, the stream consumer keeps what became of it in a small item of
 * its own (pk = id, sk "receipt") until RECEIPT_LIFETIME_MS after the secret's expiry.
 */

/** Only the key: a receipt read back by the fan-out's head-settling grant (access.ts), which names no more. */
const RECEIPT_SETTLING_ATTRIBUTES = [A.pk, A.sk] as const;

export interface ReceiptItem extends Receipt {
  pk: string;
  sk: typeof SECRET_RECEIPT_SK;
  owner: string;
  ttl: number;
}

/** A head as the status route reads it: never its data, filename, mimetype or gate. */
export interface HeadFactsItem extends ReceiptFacts {
  pk: string;
  sk: typeof SECRET_HEAD_SK;
  owner: string;
  /** Set on a secret request's head: `open` until it is answered. */
  requestState?: string;
}

/**
 * Writes the receipt of a secret whose head was deleted. Unconditional: a repeat (after a lost
 * answer, or the stream retrying its record) writes the same item again. A lost answer is settled
 * by reading the item's key: there, the put applied; not there, it is sent again.
 */
export async function putReceipt(id: string, owner: string, receipt: Receipt): Promise<void> {
  const item: ReceiptItem = {
    pk: id,
    sk: SECRET_RECEIPT_SK,
    owner,
    ...receipt,
    ttl: epochSeconds(receipt.expires + RECEIPT_LIFETIME_MS),
  };
  await settledWrite({
    write: async (abortSignal) => {
      await dynamo.send(new PutCommand({ TableName: tableName(SECRETS_TABLE), Item: item }), abortSignal ? { abortSignal } : {});
    },
    settle: async (signal) =>
      (await readForSettling(tableName(SECRETS_TABLE), { pk: id, sk: SECRET_RECEIPT_SK }, RECEIPT_SETTLING_ATTRIBUTES, signal))
        ? undefined
        : NOT_APPLIED,
  });
}

/**
 * Whether a secret's head was deleted (revoked, its last view taken, burned, expired): the stream
 * consumer keeps its receipt then. Read by the key only, as the create routes' head-settling grant
 * allows: a keyed create's repeat tells by it a secret its first made from one never made.
 */
export const hasReceipt = async (id: string): Promise<boolean> =>
  (await readForSettling(tableName(SECRETS_TABLE), { pk: id, sk: SECRET_RECEIPT_SK }, RECEIPT_SETTLING_ATTRIBUTES, undefined)) !== undefined;

/** A secret's head (its facts only) and its receipt item, each if stored, in one strongly consistent read. */
export async function readHeadAndReceipt(id: string): Promise<{ head?: HeadFactsItem; receipt?: ReceiptItem }> {
  const items = await batchGetAll<HeadFactsItem | ReceiptItem>(
    tableName(SECRETS_TABLE),
    [
      { pk: id, sk: SECRET_HEAD_SK },
      { pk: id, sk: SECRET_RECEIPT_SK },
    ],
    RECEIPT_READ_ATTRIBUTES,
  );
  return {
    head: items.find((item): item is HeadFactsItem => item.sk === SECRET_HEAD_SK),
    receipt: items.find((item): item is ReceiptItem => item.sk === SECRET_RECEIPT_SK),
  };
}
