import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ENV } from '#lambdas/definitions/env';
import { SECRETS_TABLE, SECRET_RECEIPT_SK } from '#lambdas/definitions/tables';
import { localDynamoDbClient } from '#local/dynamodb-local';
import { api, createKey, createSecret, dataFilling } from '#test/support/api';

/**
 * What a secret's receipt costs (docs/decisions/receipts.md), measured on DynamoDB Local: a 1 KB
 * secret with 1 and with 5 views is created and used up through local mode, its receipt item
 * read back once the stream consumer wrote it, and written again here unchanged with
 * ReturnConsumedCapacity, which is the write the consumer made. Its size is DynamoDB's
 * documented item size (attribute names and values; DynamoDB reports no item's size), and its
 * storage adds the 100 bytes of per-item overhead DynamoDB bills.
 */

export interface ReceiptCost {
  views: number;
  /** The receipt item's PutItem, as DynamoDB Local reported it. */
  writeUnits: number;
  itemBytes: number;
  /** itemBytes plus DynamoDB's per-item storage overhead. */
  storedBytes: number;
  /** What the head carries for the receipt while the secret lives: its `viewed` list. */
  headViewedBytes: number;
}

/** DynamoDB bills 100 bytes of overhead per stored item (its index entry). */
const STORAGE_OVERHEAD_BYTES = 100;

/**
 * DynamoDB's item size (Developer Guide, "Item sizes and formats"), for the value kinds a
 * receipt holds: a name's UTF-8 bytes; a string's UTF-8 bytes; a number 1 byte per two
 * significant digits plus 1; a list 3 bytes plus 1 per element plus the elements.
 * Hand-written: no kept library computes it, and DynamoDB reports capacity, not sizes.
 */
function valueBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/^0+|\.|0+$/g, '').length / 2) + 1;
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, element) => sum + 1 + valueBytes(element), 0);
  throw new Error(`no size rule for ${typeof value}`);
}

export const itemBytes = (item: Record<string, unknown>): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);

export async function measureReceiptCosts(baseUrl: string, handlerEnv: Record<string, string>): Promise<ReceiptCost[]> {
  const client = DynamoDBDocumentClient.from(localDynamoDbClient(handlerEnv[ENV.dynamodbEndpoint] ?? ''));
  const table = handlerEnv[SECRETS_TABLE.envVar] ?? '';
  try {
    const costs: ReceiptCost[] = [];
    for (const views of [1, 5]) {
      const { key } = await createKey(undefined, baseUrl);
      const { id } = await createSecret(key, { data: dataFilling(1024), views }, baseUrl);
      for (let view = 0; view < views; view++) await api('GET', `/secrets/${id}`, { key, baseUrl });
      const item = await receiptItemOf(client, table, id);
      const { ConsumedCapacity } = await client.send(new PutCommand({ TableName: table, Item: item, ReturnConsumedCapacity: 'TOTAL' }));
      const bytes = itemBytes(item);
      costs.push({
        views,
        writeUnits: ConsumedCapacity?.CapacityUnits ?? NaN,
        itemBytes: bytes,
        storedBytes: bytes + STORAGE_OVERHEAD_BYTES,
        headViewedBytes: itemBytes({ viewed: item.viewed }),
      });
    }
    return costs;
  } finally {
    client.destroy();
  }
}

async function receiptItemOf(client: DynamoDBDocumentClient, table: string, id: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { Item } = await client.send(new GetCommand({ TableName: table, Key: { pk: id, sk: SECRET_RECEIPT_SK }, ConsistentRead: true }));
    if (Item) return Item;
    if (Date.now() > deadline) throw new Error('no receipt item within 30 s of the last view');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
