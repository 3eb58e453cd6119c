import { describe, expect, it } from 'vitest';
import { buildMonitoringChart, type GraphSettings, metricsToFetch, PHASE_COLOURS, SUBMETER_COLOURS, submeterLabels } from './monitoring-chart.ts';
import { offeredToggles, secondaryChoicesFor } from './monitoring-settings.ts';

const defaults: GraphSettings = {
  on: { house: true, grid: true, solar: true, sga: false, battery: true, system: false },
  secondary: 'state_of_charge',
  phases: false,
};
const settings = (patch: Partial<GraphSettings> = {}, on: Partial<GraphSettings['on']> = {}): GraphSettings => ({
  ...defaults,
  ...patch,
  on: { ...defaults.on, ...on },
});

describe('metricsToFetch', () => {
  it('asks for the default series and the state of charge', () => {
    expect(metricsToFetch(settings())).toEqual(['housePower', 'meterPower', 'solarPower', 'batteryPower', 'soc']);
  });

  it('asks for solar and battery when only System is on, since System is their difference', () => {
    expect(metricsToFetch(settings({}, { house: false, grid: false, solar: false, battery: false, system: true }))).toEqual([
      'solarPower',
      'batteryPower',
      'soc',
    ]);
  });

  it('asks for the three phases of the grid and of the voltage when split by phase', () => {
    expect(metricsToFetch(settings({ phases: true, secondary: 'voltage' }, { house: false, solar: false, battery: false }))).toEqual([
      'meterPowerA',
      'meterPowerB',
      'meterPowerC',
      'meterVoltageA',
      'meterVoltageB',
      'meterVoltageC',
    ]);
  });
});

describe('buildMonitoringChart', () => {
  const data = {
    '1700000600': { housePower: 1.5, meterPower: -2, solarPower: 4, batteryPower: 0.5, soc: 80 },
    '1700000300': { housePower: 1, meterPower: 0.5, solarPower: 3, batteryPower: null, soc: 79 },
  };

  it('orders the timestamps and draws one line per series that is on, then the secondary axis', () => {
    const chart = buildMonitoringChart(settings(), data);
    expect(chart.x).toEqual([1700000300, 1700000600]);
    expect(chart.lines.map((l) => [l.label, l.axis])).toEqual([
      ['House', 'y'],
      ['Grid', 'y'],
      ['Solar', 'y'],
      ['Battery', 'y'],
      ['State of charge', 'y2'],
    ]);
    expect(chart.lines[1].values).toEqual([0.5, -2]);
    expect(chart.unit).toBe('kW');
    expect(chart.empty).toBe(false);
  });

  it('draws System as solar minus battery, with a gap where either is missing', () => {
    const chart = buildMonitoringChart(settings({}, { house: false, grid: false, solar: false, battery: false, system: true }), data);
    expect(chart.lines[0]).toMatchObject({ label: 'System', values: [null, 3.5] });
  });

  it('splits the grid into phases A, B and C', () => {
    const chart = buildMonitoringChart(settings({ phases: true }, { house: false, solar: false, battery: false }), {
      '1700000300': { meterPowerA: 1, meterPowerB: 2, meterPowerC: 3, soc: 50 },
    });
    expect(chart.lines.map((l) => l.label)).toEqual(['Grid phase A', 'Grid phase B', 'Grid phase C', 'State of charge']);
  });

  it('draws split voltage as three lines in three distinct phase colours, named for the legend', () => {
    const chart = buildMonitoringChart(settings({ phases: true, secondary: 'voltage' }, { house: false, grid: false, solar: false, battery: false }), {
      '1700000300': { meterVoltageA: 240, meterVoltageB: 241, meterVoltageC: 239 },
    });
    expect(chart.lines.map((l) => [l.label, l.axis, l.color, l.values[0]])).toEqual([
      ['Voltage A', 'y2', '#e03131', 240],
      ['Voltage B', 'y2', '#343a40', 241],
      ['Voltage C', 'y2', '#1864ab', 239],
    ]);
    expect(new Set(PHASE_COLOURS).size).toBe(3);
  });

  it('names each secondary line when the axis has several (reactive power of the meter and of the solar)', () => {
    const chart = buildMonitoringChart(settings({ secondary: 'reactive_power' }, { house: false, grid: false, solar: false, battery: false }), {
      '1700000300': { meterReactivePower: 1, solarReactivePower: 2 },
    });
    expect(chart.lines.map((l) => l.label)).toEqual(['Reactive power', 'Reactive power solar']);
  });

  it('adds up to two submeters as dashed power lines, by their names', () => {
    const chart = buildMonitoringChart(settings({}, { house: false, grid: false, solar: false, battery: false }), data, [
      { name: 'Pool pump', data: { '1700000600': { p: 0.7, q: 0.1 } } },
      { name: 'Hot water', data: undefined },
    ]);
    expect(chart.lines.slice(0, 2)).toMatchObject([
      { label: 'Pool pump', values: [null, 0.7], axis: 'y', dash: [4, 3] },
      { label: 'Hot water', values: [null, null], axis: 'y' },
    ]);
  });

  it('gives the two submeters distinct colours', () => {
    const chart = buildMonitoringChart(settings({}, { house: false, grid: false, solar: false, battery: false }), data, [
      { name: 'Hot water (meter 11)', data: undefined },
      { name: 'Hot water (meter 12)', data: undefined },
    ]);
    expect(chart.lines.slice(0, 2).map((l) => l.color)).toEqual([...SUBMETER_COLOURS]);
    expect(SUBMETER_COLOURS[0]).not.toBe(SUBMETER_COLOURS[1]);
  });

  it('leaves out a partial day (today in a month view) and says where it starts, instead of drawing a false cliff', () => {
    const month = {
      '1700000000': { housePower: 1, solarPower: 2, batteryPower: 0.5, soc: 50 },
      '1700086400': { housePower: 9, solarPower: 0, batteryPower: -3, soc: 20 },
    };
    const chart = buildMonitoringChart(settings({}, { system: true }), month, [{ name: 'Pool pump', data: { '1700086400': { p: 4, q: 0 } } }], 1700086400);
    expect(chart.x).toEqual([1700000000, 1700086400]);
    expect(chart.omitted).toBe(1700086400);
    for (const l of chart.lines) expect(l.values[1]).toBeNull();
    expect(chart.lines.find((l) => l.label === 'House')?.values[0]).toBe(1);
    expect(chart.lines.find((l) => l.label === 'System')?.values[0]).toBe(1.5);
    expect(chart.empty).toBe(false);
    expect(buildMonitoringChart(settings(), month).omitted).toBeNull();
  });

  it('switches the power axis to MW above 1000 kW, scaling only the power lines', () => {
    const chart = buildMonitoringChart(settings({}, { house: false, solar: false, battery: false }), {
      '1700000300': { meterPower: 2500, soc: 60 },
    });
    expect(chart.unit).toBe('MW');
    expect(chart.lines[0].values).toEqual([2.5]);
    expect(chart.lines[1].values).toEqual([60]);
  });

  it('is empty with no data, or when every value is missing', () => {
    expect(buildMonitoringChart(settings(), undefined).empty).toBe(true);
    expect(buildMonitoringChart(settings(), { '1700000300': { housePower: null } }).empty).toBe(true);
  });
});

describe('submeterLabels', () => {
  it('adds the meter id only to names that several submeters share', () => {
    expect([
      ...submeterLabels([
        { id: 11, name: 'Hot water' },
        { id: 12, name: 'Hot water' },
        { id: 13, name: 'Pool pump' },
      ]).values(),
    ]).toEqual(['Hot water (meter 11)', 'Hot water (meter 12)', 'Pool pump']);
  });
});

describe('a node without a battery', () => {
  it('offers no Battery series and no state-of-charge axis, with voltage as the default axis', () => {
    expect(offeredToggles({ hasBattery: false }, false)).toEqual(['house', 'grid', 'solar', 'system']);
    expect(offeredToggles({ hasBattery: true }, true)).toEqual(['house', 'grid', 'solar', 'sga', 'battery', 'system']);
    expect(secondaryChoicesFor({ hasBattery: false })).toEqual(['voltage', 'frequency', 'reactive_power']);
    expect(secondaryChoicesFor({ hasBattery: true })[0]).toBe('state_of_charge');
  });
});
