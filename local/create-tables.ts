import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { localDynamoDbClient } from './dynamodb-local';
import { TABLES, toCreateTableInput, type TableDefinition } from '../lambdas/definitions/tables';

/**
 * Creates each table from its shared definition unless it exists (e.g. kept in DATA_DIR).
 * Returns the names of the tables it created.
 */
export async function ensureTables(endpoint: string, nameOf: (table: TableDefinition) => string): Promise<Set<string>> {
  const client = localDynamoDbClient(endpoint);
  const created = new Set<string>();
  try {
    for (const table of TABLES) {
      const TableName = nameOf(table);
      try {
        await client.send(new CreateTableCommand(toCreateTableInput(table, TableName)));
        created.add(TableName);
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
      await waitUntilActive(client, TableName);
    }
    return created;
  } finally {
    client.destroy();
  }
}

async function waitUntilActive(client: DynamoDBClient, TableName: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`table ${TableName} did not become ACTIVE`);
}
