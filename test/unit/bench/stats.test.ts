import { judge, percentile, repeated } from '#bench/stats';

describe('percentile', () => {
  test('nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('a figure over repetitions', () => {
  test('median and spread', () => {
    expect(repeated([1.31, 1.02, 1.07])).toEqual({ median: 1.07, min: 1.02, max: 1.31 });
  });

  test('is judged on its median: one stray repetition neither fails nor passes it', () => {
    expect(judge([1.31, 1.02, 1.07], 1.1)).toMatchObject({ median: 1.07, pass: true });
    expect(judge([1.12, 0.9, 1.15], 1.1)).toMatchObject({ median: 1.12, pass: false });
  });

  test('a median on the budget passes', () => {
    expect(judge([1.1, 1.1, 1.2], 1.1).pass).toBe(true);
  });

  test('needs a repetition', () => {
    expect(() => repeated([])).toThrow();
  });
});
