import type { AppContext } from '../../platform/context.ts';
import { type DispatchMeasurement, measureDispatch, measuredEnd } from './dispatches.measurement.ts';
import type { DispatchRow } from './dispatches.repo.ts';

/** What the nodes delivered in one 5-minute bucket (kW signed like the request, kWh). */
export interface ResponsePoint {
  realPowerP: number;
  rejectedRealPowerP: number;
  deliveredKwh: number;
}

export interface MeasuredResponse {
  series: Map<number, ResponsePoint>;
  total: { realPowerP: number; rejectedRealPowerP: number; deliveredKwh: number; deploymentsResponded: number };
  /** The share of responding nodes with a reading and a baseline in every measured bucket (1 when none responded). */
  coverage: number;
  measurement: DispatchMeasurement;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000 + 0;

/**
 * The response measured from telemetry (issue 11 item 4, on issue 33's basis): per 5-minute bucket
 * measured so far, delivered realPowerP is the change at the meters of the nodes that accepted their
 * orders against each one's baseline (dispatches.measurement.ts); rejectedRealPowerP is the rest of
 * the request, rejected or not delivered, so that the two add up to the request. deliveredKwh is
 * Σ kW × the seconds measured ÷ 3600 (the part of the bucket before a cancel). The total's powers are
 * the latest measured bucket's; its energy is the sum so far.
 */
export async function measuredResponse(ctx: AppContext, d: DispatchRow): Promise<MeasuredResponse> {
  // Buckets without readings yet (still to come) are not measured.
  const m = await measureDispatch(ctx, d, d.orders_sent_at === null ? d.start_time : measuredEnd(d));
  const series = new Map<number, ResponsePoint>();
  for (const iv of m.intervals) {
    if (!iv.nodesMeasured) continue;
    series.set(iv.ts, {
      realPowerP: round3(iv.deliveredKw),
      rejectedRealPowerP: round3(iv.requestedKw - iv.deliveredKw),
      deliveredKwh: round3((iv.deliveredKw * iv.seconds) / 3600),
    });
  }
  const last = [...series.values()].at(-1);
  let deliveredKwh = 0;
  for (const p of series.values()) deliveredKwh += p.deliveredKwh;
  const accepted = m.nodes.filter((x) => x.answer === 'ACCEPTED');
  const incomplete = accepted.filter((x) =>
    m.intervals.some((iv, k) => iv.nodesMeasured > 0 && (Number.isNaN(x.measured[k]) || Number.isNaN(x.baseline.kw[k]))),
  ).length;
  return {
    series,
    measurement: m,
    coverage: accepted.length ? Math.round(((accepted.length - incomplete) / accepted.length) * 1000) / 1000 : 1,
    total: {
      realPowerP: last?.realPowerP ?? 0,
      rejectedRealPowerP: last?.rejectedRealPowerP ?? 0,
      deliveredKwh: round3(deliveredKwh),
      deploymentsResponded: accepted.length,
    },
  };
}
