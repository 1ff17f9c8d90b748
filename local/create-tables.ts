import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { localDynamoDbClient } from './dynamodb-local';
import { sleep } from './poller-support';
import { TABLES, toCreateTableInput, type TableDefinition } from '#lambdas/definitions/tables';

export interface EnsuredTable {
  /** False for a table that already existed (e.g. kept in DATA_DIR). */
  created: boolean;
  /** The table's LatestStreamArn; none for a table without a stream. */
  streamArn: string | undefined;
}

/** Creates each table from its shared definition unless it exists, and waits until each is ACTIVE. */
export async function ensureTables(endpoint: string, nameOf: (table: TableDefinition) => string): Promise<Map<string, EnsuredTable>> {
  const client = localDynamoDbClient(endpoint);
  const tables = new Map<string, EnsuredTable>();
  try {
    for (const table of TABLES) {
      const TableName = nameOf(table);
      let created = false;
      try {
        await client.send(new CreateTableCommand(toCreateTableInput(table, TableName)));
        created = true;
        // DynamoDB Local records TTL settings but never deletes: the code checks expiry itself.
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName,
            TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
          }),
        );
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
      }
      tables.set(TableName, { created, streamArn: await waitUntilActive(client, TableName) });
    }
    return tables;
  } finally {
    client.destroy();
  }
}

/** Returns the table's LatestStreamArn, from the same description that shows it ACTIVE. */
async function waitUntilActive(client: DynamoDBClient, TableName: string): Promise<string | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    if (Table?.TableStatus === 'ACTIVE') return Table.LatestStreamArn;
    await sleep(100);
  }
  throw new Error(`table ${TableName} did not become ACTIVE`);
}

/** Local table names: the definition's env variable if set, else a fixed name per table. */
export function localTableName(table: TableDefinition): string {
  return (process.env[table.envVar] ||= `local-${table.id}`);
}
