import { describe, expect, it } from 'vitest';
import { chartTable, padRange, stripeEdges } from './time-series-chart-types.ts';

describe('chartTable', () => {
  it('has a time column and one column per series with its unit, values to 2 decimals as in the tooltips', () => {
    // 2023-11-14 22:15 and 22:20 UTC are 15/11 08:15 and 08:20 in Brisbane (UTC+10).
    const table = chartTable({
      x: [1700000100, 1700000400],
      timeZone: 'Australia/Brisbane',
      unit: 'kW',
      secondaryUnit: '%',
      series: [
        { label: 'Grid', values: [1.234, null], color: '#000', axis: 'y' },
        { label: 'State of charge', values: [80, 79.996], color: '#000', axis: 'y2' },
      ],
    });
    expect(table.head).toEqual(['Time', 'Grid (kW)', 'State of charge (%)']);
    expect(table.rows).toEqual([
      { ts: 1700000100, cells: ['15/11, 08:15', '1.23', '80.00'] },
      { ts: 1700000400, cells: ['15/11, 08:20', '–', '80.00'] },
    ]);
  });

  it('has no rows without data, and leaves out times at which no series has a value', () => {
    expect(chartTable({ x: [], series: [], timeZone: 'UTC', unit: 'kW' })).toEqual({ head: ['Time'], rows: [] });
    const table = chartTable({
      x: [0, 300, 600],
      timeZone: 'UTC',
      unit: 'kWh',
      series: [{ label: 'Remaining charge', values: [null, 5, null], color: '#000', axis: 'y' }],
    });
    expect(table.rows).toEqual([{ ts: 300, cells: ['01/01, 00:05', '5.00'] }]);
  });
});

describe('stripeEdges', () => {
  it('splits the span into equal bands for a count', () => {
    expect(stripeEdges(4, 0, 100)).toEqual([0, 25, 50, 75, 100]);
  });

  it('uses given edges (a 31-day month by its midnights), held within the span', () => {
    const days = Array.from({ length: 31 }, (_, i) => i * 86400);
    const edges = stripeEdges(days, 0, 31 * 86400);
    expect(edges).toHaveLength(32);
    expect(edges.at(-2)).toBe(30 * 86400);
    expect(stripeEdges([-5, 10, 20, 200], 0, 100)).toEqual([0, 10, 20, 100]);
  });
});

describe('padRange', () => {
  it('widens the span on both sides', () => {
    expect(padRange(0, 10, 0.1)).toEqual([-1, 11]);
  });
});
