import type { AppContext } from '../../platform/context.ts';
import { externalResponses } from './dispatches.external.service.ts';
import { type DispatchMeasurement, measureDispatch, measuredEnd } from './dispatches.measurement.service.ts';
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
  /** The OpenADR VENs' resources that reported on the dispatch's intervals (counted in series and total). */
  external: { source: string; resource: string; nodeId: number | null; deliveredKwh: number; series: Record<string, number> }[];
}

const round3 = (v: number) => Math.round(v * 1000) / 1000 + 0;

/**
 * The response measured from telemetry (issue 11 item 4, on issue 33's basis): per 5-minute bucket
 * measured so far, delivered realPowerP is the change at the meters of the nodes that accepted their
 * orders against each one's baseline (dispatches.measurement.service.ts); rejectedRealPowerP is the rest of
 * the request, rejected or not delivered, so that the two add up to the request. deliveredKwh is
 * Σ kW × the seconds measured ÷ 3600 (the part of the bucket before a cancel). The total's powers are
 * the latest measured bucket's; its energy is the sum so far. The OpenADR VENs' reported deliveries
 * (dispatches.external.service.ts) are added to each bucket they report and count as responding deployments.
 */
export async function measuredResponse(ctx: AppContext, d: DispatchRow): Promise<MeasuredResponse> {
  // Buckets without readings yet (still to come) are not measured.
  const m = await measureDispatch(ctx, d, d.orders_sent_at === null ? d.start_time : measuredEnd(d));
  const accepted = m.nodes.filter((x) => x.answer === 'ACCEPTED');
  // A VEN's resource enrolled as one of the nodes the console measured itself is counted once, by the console.
  const own = new Set(accepted.map((x) => x.nodeId));
  const external = (await externalResponses(ctx, d.id, m.buckets)).filter((x) => x.nodeId === null || !own.has(x.nodeId));
  const series = new Map<number, ResponsePoint>();
  for (const [k, iv] of m.intervals.entries()) {
    const reported = external.filter((x) => !Number.isNaN(x.kw[k]));
    if (!iv.nodesMeasured && !reported.length) continue;
    const delivered = iv.deliveredKw + reported.reduce((sum, x) => sum + x.kw[k], 0);
    series.set(iv.ts, {
      realPowerP: round3(delivered),
      rejectedRealPowerP: round3(iv.requestedKw - delivered),
      deliveredKwh: round3((delivered * iv.seconds) / 3600),
    });
  }
  const last = [...series.values()].at(-1);
  let deliveredKwh = 0;
  for (const p of series.values()) deliveredKwh += p.deliveredKwh;
  const incomplete = accepted.filter((x) =>
    m.intervals.some((iv, k) => iv.nodesMeasured > 0 && (Number.isNaN(x.measured[k]) || Number.isNaN(x.baseline.kw[k]))),
  ).length;
  const lines = external.map((x) => {
    const out: Record<string, number> = {};
    let kwh = 0;
    m.buckets.forEach((ts, k) => {
      if (Number.isNaN(x.kw[k])) return;
      out[ts] = round3(x.kw[k]);
      kwh += (x.kw[k] * m.seconds[k]) / 3600;
    });
    return { source: x.source, resource: x.resource, nodeId: x.nodeId, deliveredKwh: round3(kwh), series: out };
  });
  return {
    series,
    measurement: m,
    coverage: accepted.length ? Math.round(((accepted.length - incomplete) / accepted.length) * 1000) / 1000 : 1,
    total: {
      realPowerP: last?.realPowerP ?? 0,
      rejectedRealPowerP: last?.rejectedRealPowerP ?? 0,
      deliveredKwh: round3(deliveredKwh),
      deploymentsResponded: accepted.length + lines.length,
    },
    external: lines,
  };
}
