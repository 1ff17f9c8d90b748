/**
 * Checks a value against a JSON Schema (2020-12) of the kind zod's toJSONSchema emits, resolving
 * local `$ref`s in `root`. Hand-written: no maintained validator (ajv) is a dependency of this
 * repository, and this subset is small. Any keyword outside it throws, so a schema that starts
 * using one cannot pass unchecked.
 */

export type Schema = { [keyword: string]: unknown };

const ANNOTATIONS = new Set(['description', 'default', 'format', 'required']);

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const matchesType = (value: unknown, type: string): boolean => typeOf(value) === type || (type === 'number' && typeOf(value) === 'integer');

function resolve(root: Schema, reference: string): Schema {
  let node: unknown = root;
  for (const segment of reference.replace(/^#\//, '').split('/')) node = (node as Schema)[segment];
  if (typeof node !== 'object' || node === null) throw new Error(`unresolved ${reference}`);
  return node as Schema;
}

export function validate(schema: Schema, value: unknown, root: Schema, at = '$'): string[] {
  if (typeof schema.$ref === 'string') return validate(resolve(root, schema.$ref), value, root, at);
  const problems: string[] = [];
  const fail = (problem: string) => problems.push(`${at}: ${problem}`);
  for (const [keyword, expected] of Object.entries(schema)) {
    switch (keyword) {
      case 'type': {
        const types = Array.isArray(expected) ? (expected as string[]) : [expected as string];
        if (!types.some((type) => matchesType(value, type))) fail(`is ${typeOf(value)}, not ${types.join(' or ')}`);
        break;
      }
      case 'properties':
        if (typeOf(value) === 'object') {
          for (const [name, property] of Object.entries(expected as Record<string, Schema>)) {
            if (name in (value as object)) problems.push(...validate(property, (value as Record<string, unknown>)[name], root, `${at}.${name}`));
          }
        }
        break;
      case 'required':
        // As a keyword of an object schema: a list of names. (Header objects' boolean `required` is read by the caller.)
        if (Array.isArray(expected) && typeOf(value) === 'object') {
          for (const name of expected as string[]) if (!(name in (value as object))) fail(`lacks ${name}`);
        }
        break;
      case 'additionalProperties':
        if (expected === false && typeOf(value) === 'object') {
          const known = Object.keys((schema.properties as object | undefined) ?? {});
          for (const name of Object.keys(value as object)) if (!known.includes(name)) fail(`has unexpected ${name}`);
        }
        break;
      case 'enum':
        if (!(expected as unknown[]).includes(value)) fail(`${JSON.stringify(value)} is not one of ${JSON.stringify(expected)}`);
        break;
      case 'const':
        if (value !== expected) fail(`${JSON.stringify(value)} is not ${JSON.stringify(expected)}`);
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(expected as string, 'u').test(value)) fail(`does not match ${String(expected)}`);
        break;
      case 'minLength':
      case 'maxLength':
        if (typeof value === 'string') {
          const length = [...value].length;
          if (keyword === 'minLength' ? length < (expected as number) : length > (expected as number)) fail(`${keyword} ${String(expected)}`);
        }
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof value === 'number') {
          const bound = expected as number;
          const ok = { minimum: value >= bound, maximum: value <= bound, exclusiveMinimum: value > bound, exclusiveMaximum: value < bound }[keyword];
          if (!ok) fail(`${keyword} ${bound}`);
        }
        break;
      case 'anyOf':
        if (!(expected as Schema[]).some((option) => validate(option, value, root, at).length === 0)) fail('matches none of anyOf');
        break;
      default:
        if (!ANNOTATIONS.has(keyword)) throw new Error(`JSON Schema keyword ${keyword} is not supported by this validator`);
    }
  }
  return problems;
}
