import { mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR as the user means it: a relative path from the folder where `npm start` was typed
 * (npm runs the script from the package's folder and says where it was called from in INIT_CWD;
 * DynamoDB Local runs from its own package's folder, where a relative path fails with "Invalid
 * directory for database creation"), created if it does not exist yet. Undefined: keep data in memory.
 */
export function prepareDataDir(value: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!value) return undefined;
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), value);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(`DATA_DIR=${value}: cannot create the folder ${dataDir} (${reason}); set DATA_DIR to a folder you can write to`, {
      cause: error,
    });
  }
  return dataDir;
}
