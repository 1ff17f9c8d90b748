/**
 * A conditional write's condition stated once, as data: `renderCondition` gives DynamoDB its
 * ConditionExpression, `holds` evaluates it on an item read back (the item a refused write
 * returned, or a settling read's), so no hand-kept TypeScript twin of an expression can drift from
 * it. Hand-written: no maintained library renders DynamoDB conditions and also evaluates them.
 */

type Comparison = '=' | '<>' | '<' | '<=' | '>' | '>=';
type Value = string | number | boolean;

export type Condition =
  | { readonly path: string; readonly op: 'exists' | 'absent' }
  | { readonly path: string; readonly op: Comparison; readonly value: Value }
  /** The size of a list or map (its entries) or a string (its UTF-8 bytes), compared. */
  | { readonly sizeOf: string; readonly op: Comparison; readonly value: number }
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] };

export interface RenderedCondition {
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** A condition no item meets: a write that only reads back the item it fails on (ReturnValuesOnConditionCheckFailure). */
export const NEVER: Condition = {
  all: [
    { path: 'pk', op: 'exists' },
    { path: 'pk', op: 'absent' },
  ],
};

/** A write's own token at `path`: a put that may rewrite its own item holds on it, or an update's settling read finds it. */
export const writtenBy = (path: string, token: string): Condition => ({ path, op: '=', value: token });
/** Not yet written by the write whose token this is: an update that counts once fails on its own repeat. */
export const notWrittenBy = (path: string, token: string): Condition => ({ path, op: '<>', value: token });

const partsOf = (part: Condition): readonly Condition[] => ('all' in part ? part.all : 'any' in part ? part.any : []);

/**
 * The condition's expression, with the names and values the rest of the command uses (`names`,
 * `values`) merged in: its own placeholders are `#c…` and `:c…`.
 */
export function renderCondition(condition: Condition, names: Record<string, string> = {}, values: Record<string, unknown> = {}): RenderedCondition {
  const ownNames: Record<string, string> = {};
  const ownValues: Record<string, unknown> = {};
  const nameOf = (segment: string): string => {
    const placeholder = `#c${Object.keys(ownNames).length}`;
    ownNames[placeholder] = segment;
    return placeholder;
  };
  // DynamoDB refuses redundant parentheses: only a group of two or more within another is wrapped.
  const grouped = (part: Condition): string => (partsOf(part).length > 1 ? `(${render(part)})` : render(part));
  const render = (part: Condition): string => {
    const parts = partsOf(part);
    if (parts.length === 1) return render(parts[0]!);
    if ('all' in part) return part.all.map(grouped).join(' AND ');
    if ('any' in part) return part.any.map(grouped).join(' OR ');
    const nameOfPath = (path: string): string => path.split('.').map(nameOf).join('.');
    if ('sizeOf' in part) return `size(${nameOfPath(part.sizeOf)}) ${part.op} ${valueOf(part.value)}`;
    const path = nameOfPath(part.path);
    if (!('value' in part)) return part.op === 'exists' ? `attribute_exists(${path})` : `attribute_not_exists(${path})`;
    return `${path} ${part.op} ${valueOf(part.value)}`;
  };
  const valueOf = (value: Value): string => {
    const placeholder = `:c${Object.keys(ownValues).length}`;
    ownValues[placeholder] = value;
    return placeholder;
  };
  const expression = render(condition);
  const allValues = { ...ownValues, ...values };
  return {
    ConditionExpression: expression,
    ExpressionAttributeNames: { ...ownNames, ...names },
    // DynamoDB refuses an empty map.
    ...(Object.keys(allValues).length > 0 ? { ExpressionAttributeValues: allValues } : {}),
  };
}

const valueAt = (item: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((at, segment) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[segment] : undefined), item);

/** As DynamoDB compares: a missing attribute, or one of another type, is unequal to the value and fails every other comparison. */
function compares(found: unknown, op: Comparison, value: Value): boolean {
  if (op === '<>') return found !== value;
  if (typeof found !== typeof value) return false;
  const [a, b] = [found as Value, value];
  if (op === '=') return a === b;
  if (typeof a === 'boolean') return false;
  if (op === '<') return a < b;
  if (op === '<=') return a <= b;
  if (op === '>') return a > b;
  return a >= b;
}

/** DynamoDB's size(): undefined (as a missing attribute compares) for a missing attribute or a number. */
function sizeOf(found: unknown): number | undefined {
  if (typeof found === 'string') return Buffer.byteLength(found);
  if (found instanceof Uint8Array) return found.byteLength;
  if (Array.isArray(found)) return found.length;
  if (found instanceof Set) return found.size;
  if (typeof found === 'object' && found !== null) return Object.keys(found).length;
  return undefined;
}

/** Whether the condition holds on `item` (undefined: no item), as DynamoDB would find. */
export function holds(condition: Condition, item: object | undefined): boolean {
  if ('all' in condition) return condition.all.every((each) => holds(each, item));
  if ('any' in condition) return condition.any.some((each) => holds(each, item));
  if ('sizeOf' in condition) return compares(sizeOf(valueAt(item, condition.sizeOf)), condition.op, condition.value);
  const found = valueAt(item, condition.path);
  if (!('value' in condition)) return (found !== undefined) === (condition.op === 'exists');
  return compares(found, condition.op, condition.value);
}
