// The voltage heat map's colours (spec 2 §9 'Voltage heat map'): the bands under 230, 233 and 235 V
// and over 245, 247 and 250 V around the default 240 V, and beyond them the edges of the Australian
// supply band, 230 V +10 % / −6 % (216.2 V to 253 V, AS 60038).

/**
 * The heat map's nominal voltage (spec 2 §9 "default voltage 240"): the middle of its colour scale,
 * the green band from 235 V to 245 V, and the legend's "240v". A node without a reading younger than
 * the max age is not in the reply at all (the server leaves it out), so it counts in no hexagon: the
 * spec does not say that a missing reading counts as 240 V, and painting it green would hide it.
 */
export const DEFAULT_VOLTAGE = 240;

/** The lowest and highest supply voltage AS 60038 allows. */
export const VOLTAGE_MIN = 216.2;
export const VOLTAGE_MAX = 253;

/** Colour steps: below the first edge the first colour; from each edge up, the next colour. */
export const VOLTAGE_STEPS: { from: number; colour: string }[] = [
  { from: Number.NEGATIVE_INFINITY, colour: '#4a1d96' },
  { from: VOLTAGE_MIN, colour: '#1864ab' },
  { from: 230, colour: '#1c7ed6' },
  { from: 233, colour: '#74c0fc' },
  { from: 235, colour: '#37b24d' },
  { from: 245, colour: '#fcc419' },
  { from: 247, colour: '#fd7e14' },
  { from: 250, colour: '#e03131' },
  { from: VOLTAGE_MAX, colour: '#7a0b0b' },
];

/** The colour of one node's voltage. */
export function voltageColour(v: number): string {
  let colour = VOLTAGE_STEPS[0].colour;
  for (const s of VOLTAGE_STEPS) if (v >= s.from) colour = s.colour;
  return colour;
}

/** The same steps as a MapLibre 'step' expression over the feature property `v`. */
export function voltageColourExpression(): unknown[] {
  return ['step', ['get', 'v'], VOLTAGE_STEPS[0].colour, ...VOLTAGE_STEPS.slice(1).flatMap((s) => [s.from, s.colour])];
}

/** The legend: spec 2 §9's three labels on a scale, and the two ends outside the standard band. */
export const VOLTAGE_LEGEND = {
  below: { label: `Below ${VOLTAGE_MIN} V`, colour: VOLTAGE_STEPS[0].colour },
  scale: [
    { label: '<235v', colours: VOLTAGE_STEPS.slice(1, 4).map((s) => s.colour) },
    { label: `${DEFAULT_VOLTAGE}v`, colours: [VOLTAGE_STEPS[4].colour] },
    { label: '>245v', colours: VOLTAGE_STEPS.slice(5, 8).map((s) => s.colour) },
  ],
  above: { label: `Above ${VOLTAGE_MAX} V`, colour: VOLTAGE_STEPS[8].colour },
};

export interface VoltagePoint {
  id: number;
  lat: number;
  lng: number;
  value: number;
}

/** How many nodes are within the standard band and how many outside it. */
export function voltageCounts(points: readonly VoltagePoint[]): { within: number; outside: number } {
  let outside = 0;
  for (const p of points) if (p.value < VOLTAGE_MIN || p.value > VOLTAGE_MAX) outside++;
  return { within: points.length - outside, outside };
}

/** The heat map's text alternative: how many nodes it colours and how many are outside the band. */
export function heatMapDescription(points: readonly VoltagePoint[]): string {
  return heatMapSummary(points.length, voltageCounts(points).outside);
}

/** The same from the counts (the server's view of the heat map). */
export function heatMapSummary(total: number, outside: number): string {
  return `Shows the latest voltage of ${total} ${total === 1 ? 'node' : 'nodes'}: ${total - outside} within ${VOLTAGE_MIN} V to ${VOLTAGE_MAX} V, ${outside} outside.`;
}
