import { expect, it } from 'vitest';
import { heatMapDescription, VOLTAGE_LEGEND, VOLTAGE_STEPS, voltageColour, voltageColourExpression } from './voltage.ts';

it('colours a voltage by the bands of spec 2 §9 and the AS 60038 limits (216.2 V to 253 V)', () => {
  const band = (v: number) => VOLTAGE_STEPS.findIndex((s) => s.colour === voltageColour(v));
  expect([216.1, 216.2, 229.9, 230, 233, 234.9, 240, 245, 247, 250, 252.9, 253.1].map(band)).toEqual([0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 7, 8]);
  // The map's expression has the same edges and colours.
  expect(voltageColourExpression()).toEqual([
    'step',
    ['get', 'v'],
    '#4a1d96',
    216.2,
    '#1864ab',
    230,
    '#1c7ed6',
    233,
    '#74c0fc',
    235,
    '#37b24d',
    245,
    '#fcc419',
    247,
    '#fd7e14',
    250,
    '#e03131',
    253,
    '#7a0b0b',
  ]);
});

it('describes the nodes within and outside the band, and labels the legend around the default 240 V', () => {
  const points = [
    { id: 1, lat: -33, lng: 151, value: 240 },
    { id: 2, lat: -34, lng: 150, value: 215 },
    { id: 3, lat: -35, lng: 149, value: 253 },
  ];
  expect(heatMapDescription(points)).toBe('Shows the latest voltage of 3 nodes: 2 within 216.2 V to 253 V, 1 outside.');
  expect(VOLTAGE_LEGEND.scale.map((e) => e.label)).toEqual(['<235v', '240v', '>245v']);
  expect(VOLTAGE_LEGEND.scale[1].colours).toEqual([voltageColour(240)]);
});
