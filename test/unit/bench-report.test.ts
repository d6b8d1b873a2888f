// The bench's comparison of two gateways: how far apart the rounds of one pair fall.
import { describe, expect, it } from 'vitest';
import { formatMiddleHalf, middleHalf } from '../../bench/report.ts';

describe('bench report: the middle half of the rounds', () => {
  it('is the first to the third quartile of the round ratios, whatever their order', () => {
    expect(middleHalf([1.2, 0.8, 1.0, 1.1, 0.9])).toEqual([0.9, 1.1]);
    expect(middleHalf([1.05, 0.95, 1.01, 0.99])).toEqual([0.95, 1.01]);
  });

  it('does not reach into the outer rounds, where one noisy round lands', () => {
    const [low, high] = middleHalf([0.46, 1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.7]);
    expect(low).toBeGreaterThan(0.99);
    expect(high).toBeLessThan(1.07);
  });

  it('is written for the console and the tables only from 4 rounds on', () => {
    expect(formatMiddleHalf([1.2, 0.8, 1.0, 1.1, 0.9])).toBe('0.900-1.100');
    expect(formatMiddleHalf([1.2, 0.8, 1.0])).toBeUndefined();
  });
});
