import { describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD, dashboardBody, newWidgetLayout } from './layout.ts';

const messages = (v: unknown) => {
  const r = dashboardBody.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};
const at = { x: 0, y: 0, w: 1, h: 2 };

describe('the dashboard contract (spec 2 §3, §4, §9)', () => {
  it('accepts each widget kind, filling in the settings a new widget has not chosen yet', () => {
    const r = dashboardBody.parse({
      widgets: [
        { widgetId: 'WELCOME', layout: at },
        { widgetId: 'VOLTAGE_HEAT_MAP', layout: { ...at, y: 2 }, settings: { powerstation: 7 } },
        { widgetId: 'SINGLE_STAT', layout: { ...at, x: 1 }, settings: {} },
        { widgetId: 'NODE_MAP', layout: { x: 2, y: 0, w: 3, h: 4 }, settings: { shouldCluster: false } },
        { widgetId: 'DATA_GRAPH', layout: { ...at, y: 4 }, settings: { metric: 'meterPower' } },
      ],
    });
    expect(r.widgets.map((w) => w.settings)).toEqual([
      {},
      { powerstation: 7 },
      { metric: 'commissioned', powerstation: null },
      { shouldCluster: false },
      { powerstation: '__ALL_FLEET_NODES__', metric: 'meterPower' },
    ]);
  });

  it('refuses unknown widgets, sizes outside the 5 columns, more than 50 widgets and bad settings, saying what is wrong', () => {
    expect(messages({ widgets: [{ widgetId: 'CLOCK', layout: at }] })).toEqual([
      'Each widget must be an object whose widgetId is one of WELCOME, VOLTAGE_HEAT_MAP, SINGLE_STAT, NODE_MAP, DATA_GRAPH.',
    ]);
    expect(messages({ widgets: [{ widgetId: 'WELCOME', layout: { x: 3, y: 0, w: 3, h: 2 } }] })).toEqual([
      "A widget must fit in the grid's 5 columns: layout.x + layout.w must be at most 5.",
    ]);
    expect(messages({ widgets: [{ widgetId: 'WELCOME', layout: { ...at, w: 0, h: 9 } }] })).toEqual([
      'layout.w must be a whole number from 1 to 5.',
      'layout.h must be a whole number from 1 to 8.',
    ]);
    expect(messages({ widgets: Array.from({ length: 51 }, () => ({ widgetId: 'WELCOME', layout: at })) })).toEqual([
      'A dashboard can hold at most 50 widgets.',
    ]);
    expect(messages({ widgets: [{ widgetId: 'DATA_GRAPH', layout: at, settings: { powerstation: 'all', metric: 'voltage' } }] })).toEqual([
      'settings.powerstation must be a Virtual Power Plant id or __ALL_FLEET_NODES__.',
      'settings.metric must be one of solarPower, meterPower, remainingCharge.',
    ]);
    expect(messages({ widgets: [{ widgetId: 'SINGLE_STAT', layout: at, settings: { metric: 'solarPower' } }] })).toEqual([
      'settings.powerstation is required for a Single Stat of solarPower, meterPower, remainingCharge.',
    ]);
    expect(messages({ widgets: 'all' })).toEqual(['widgets must be a list.']);
  });

  it('places a new widget 1 wide by 2 high below the lowest widget in column 0', () => {
    expect(newWidgetLayout([])).toEqual({ x: 0, y: 0, w: 1, h: 2 });
    expect(newWidgetLayout([...DEFAULT_DASHBOARD.widgets, { layout: { x: 0, y: 3, w: 1, h: 4 } }, { layout: { x: 2, y: 0, w: 1, h: 9 } }])).toEqual({
      x: 0,
      y: 7,
      w: 1,
      h: 2,
    });
  });
});
