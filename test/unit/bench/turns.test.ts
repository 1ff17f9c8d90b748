import { rotated } from '#bench/turns';

describe('rotated', () => {
  it('puts each item first once over as many turns as there are items', () => {
    const items = ['a', 'b', 'c'];
    const orders = [0, 1, 2, 3].map((turn) => rotated(items, turn));
    expect(orders).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
      ['a', 'b', 'c'],
    ]);
  });

  it('turns two sides around every turn and leaves its input alone', () => {
    const sides = ['localMode', 'reference'] as const;
    expect(rotated(sides, 0)).toEqual(['localMode', 'reference']);
    expect(rotated(sides, 7)).toEqual(['reference', 'localMode']);
    expect(sides).toEqual(['localMode', 'reference']);
  });
});
