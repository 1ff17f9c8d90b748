/** The two sides every latency budget compares: local mode and the reference server. */
export type Side = 'localMode' | 'reference';
export const SIDES: readonly Side[] = ['localMode', 'reference'];

/**
 * `items` in the order of turn `turn`: the first item moves one place back each turn, so that over
 * as many turns as there are items each one goes first once, and no side keeps the advantage (or
 * the cost) of going first while the machine drifts.
 */
export function rotated<Item>(items: readonly Item[], turn: number): Item[] {
  const start = ((turn % items.length) + items.length) % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}
