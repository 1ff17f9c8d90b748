import { expressionAttributeNames } from '#local/sdk-calls';

describe('expressionAttributeNames: the top-level attributes an expression names, as IAM compares them', () => {
  test('an update: each path’s first element, placeholders resolved, values, functions and keywords left out', () => {
    expect(
      expressionAttributeNames('SET rl.#current = if_not_exists(rl.#current, :zero) + :one, counted = :token REMOVE rl.#expired', {
        '#current': '123',
        '#expired': '100',
      }),
    ).toEqual(['rl', 'rl', 'counted', 'rl']);
  });

  test('a condition: names inside functions and comparisons, never the values', () => {
    expect(
      expressionAttributeNames('attribute_exists(pk) AND size(rl) <= :maxSlots AND (attribute_not_exists(counted) OR counted <> :token)'),
    ).toEqual(['pk', 'rl', 'counted', 'counted']);
  });

  test('a placeholder stands for its name, however the name reads', () => {
    expect(expressionAttributeNames('SET #claim = remaining - :one ADD readers :one', { '#claim': 'claim:abc' })).toEqual([
      'claim:abc',
      'remaining',
      'readers',
    ]);
  });

  test('list elements and nested paths count as their top-level attribute', () => {
    expect(expressionAttributeNames('SET #log[0] = :a, a.b.c = :b', { '#log': 'log' })).toEqual(['log', 'a']);
  });

  test('no expression names nothing; an unknown placeholder is an error', () => {
    expect(expressionAttributeNames(undefined)).toEqual([]);
    expect(() => expressionAttributeNames('REMOVE #gone')).toThrow('#gone');
  });
});
