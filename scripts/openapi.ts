import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocument } from './openapi/document';

/** Writes docs/openapi.json from the schemas: `npm run openapi`. */
export const OPENAPI_PATH = path.resolve(__dirname, '../docs/openapi.json');
export const renderOpenApi = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (require.main === module) writeFileSync(OPENAPI_PATH, renderOpenApi());
