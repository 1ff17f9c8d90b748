import document from '../../docs/openapi.json';
import { validate, type Schema } from './json-schema';

/** What in a real response docs/openapi.json does not describe: its status, a header, or its body. */

const root = document as unknown as Schema;
const paths = root.paths as Record<string, Record<string, Schema>>;

interface Observed {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

function operationOf(method: string, path: string): Schema | undefined {
  for (const [template, operations] of Object.entries(paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) return operations[method.toLowerCase()];
  }
  return undefined;
}

const dereference = (node: Schema): Schema =>
  typeof node.$ref === 'string'
    ? (node.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, key) => (at as Schema)[key], root) as Schema)
    : node;

/** `path` below the base URL, as the tests' api() takes it. */
export function undocumented(method: string, path: string, observed: Observed): string[] {
  const operation = operationOf(method, path);
  if (!operation) return [`${method} ${path} is not documented`];
  const responses = operation.responses as Record<string, Schema>;
  const documented = responses[String(observed.status)];
  if (!documented) return [`${method} ${path} answered ${observed.status}, which is not documented`];

  const problems: string[] = [];
  if (!/^application\/json/.test(observed.headers['content-type'] ?? '')) problems.push('content-type is not application/json');
  for (const [name, reference] of Object.entries(documented.headers as Record<string, Schema>)) {
    const header = dereference(reference);
    // Header names are case-insensitive: the document spells some as RFC 9110 does, fetch gives them in lower case.
    const value = observed.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required === true) problems.push(`header ${name} is missing`);
      continue;
    }
    problems.push(...validate(header.schema as Schema, value, root, `header ${name}`));
  }
  const content = documented.content as Record<string, { schema: Schema }>;
  const schema = content['application/json']?.schema;
  if (schema) problems.push(...validate(schema, observed.body, root, 'body'));
  return problems;
}
