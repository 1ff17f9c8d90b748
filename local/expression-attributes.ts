/**
 * The top-level attribute names a DynamoDB expression names, #placeholders resolved: the first
 * element of each document path (`rl` for `rl.#slot`), which is what IAM's dynamodb:Attributes
 * condition compares. Hand-written: the SDK only sends expressions as strings, and no kept library
 * parses them; this covers the grammar the stores use (paths, :values, functions, keywords).
 */

/** Update clauses and the condition grammar's operators; function names are told by the `(` after them. */
const KEYWORDS = new Set(['SET', 'REMOVE', 'ADD', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN']);

/** A path's first element: a name or #placeholder not inside a path, a :value or another name. */
const PATH_START = /(?<![.\w#:])#?[A-Za-z_]\w*/g;

export function expressionAttributeNames(expression: string | undefined, placeholders: Readonly<Record<string, string>> = {}): string[] {
  if (!expression) return [];
  const names: string[] = [];
  for (const match of expression.matchAll(PATH_START)) {
    const token = match[0];
    const rest = expression.slice(match.index + token.length).trimStart();
    if (rest.startsWith('(') || KEYWORDS.has(token.toUpperCase())) continue;
    if (!token.startsWith('#')) {
      names.push(token);
      continue;
    }
    const name = placeholders[token];
    if (name === undefined) throw new Error(`expression placeholder ${token} has no name`);
    names.push(name);
  }
  return names;
}
