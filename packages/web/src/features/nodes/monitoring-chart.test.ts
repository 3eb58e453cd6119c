import { describe, expect, it } from 'vitest';
import { buildMonitoringChart, type GraphSettings, metricsToFetch } from './monitoring-chart.ts';

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
