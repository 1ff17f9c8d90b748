import type { TableDefinition } from '#lambdas/definitions/tables';

/** Local table names: the definition's env variable if set, else a fixed name per table. */
export function localTableName(table: TableDefinition): string {
  return (process.env[table.envVar] ||= `local-${table.id}`);
}
