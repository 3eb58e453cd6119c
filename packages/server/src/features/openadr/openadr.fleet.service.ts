import { durationSeconds, type Report, type ValuesMap } from '@vpp/shared/openadr/schemas';
import type { AppContext } from '../../platform/context.ts';
import type { ExternalResponse } from '../dispatches/index.ts';
import { STEP_S } from '../events/index.ts';
import * as repo from './openadr.repo.ts';

// A VEN's fleet counts (issue 31 item 3): the deliveries VENs report for a console event's
// intervals, per VEN resource and 5-minute bucket, for the dispatch's response and settlement.
//
// - A report's interval counts with a DEMAND payload (kW, the power the resource delivered against
//   its own baseline, signed like the event's DISPATCH_SETPOINT: negative exports) or, without one,
//   a USAGE payload (kWh over the interval, read as kWh × 3600 ÷ the interval's seconds kW).
// - An interval's period is its own intervalPeriod, or its resource's (then the report's) shifted
//   by the interval's id × the duration. A 5-minute bucket's kW is the average over the reported
//   part of it; a later report of the same VEN and resource replaces an earlier one's buckets.
// - A VEN resource is enrolled as one of the organisation's nodes by an attribute naming it: `NMI`
//   (the node's NMI) or `SERIAL_NUMBER` (its serial number), of a node in the organisation's fleet.

/** The payload types read as delivered power or energy. */
export const DELIVERY_PAYLOADS = ['DEMAND', 'USAGE'] as const;
/** The VEN resource attributes that enrol it as a node. */
export const ENROLMENT_ATTRIBUTES = { NMI: 'nmi', SERIAL_NUMBER: 'serial_number' } as const;

interface Interval {
  start: number;
  seconds: number;
  kw: number;
}

/** A report resource's intervals with a delivered power, in epoch seconds. */
export function deliveredIntervals(resource: Report['resources'][number]): Interval[] {
  const out: Interval[] = [];
  for (const iv of resource.intervals) {
    const period = iv.intervalPeriod ?? resource.intervalPeriod;
    if (!period?.duration) continue;
    const seconds = durationSeconds(period.duration);
    if (!seconds || seconds <= 0) continue;
    const start = Date.parse(period.start) / 1000 + (iv.intervalPeriod ? 0 : iv.id * seconds);
    const value = (type: string) => {
      const v = iv.payloads.find((p) => p.type === type)?.values[0];
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    };
    const demand = value('DEMAND');
    const usage = value('USAGE');
    const kw = demand ?? (usage === null ? null : (usage * 3600) / seconds);
    if (kw !== null) out.push({ start, seconds, kw });
  }
  return out;
}

/** Average kW per bucket over the reported part of each (NaN where nothing was reported). */
export function toBuckets(intervals: Interval[], buckets: readonly number[]): Float64Array {
  const sum = new Float64Array(buckets.length);
  const covered = new Float64Array(buckets.length);
  for (const iv of intervals) {
    for (let k = 0; k < buckets.length; k++) {
      const overlap = Math.min(buckets[k] + STEP_S, iv.start + iv.seconds) - Math.max(buckets[k], iv.start);
      if (overlap <= 0) continue;
      sum[k] += iv.kw * overlap;
      covered[k] += overlap;
    }
  }
  return sum.map((s, k) => (covered[k] > 0 ? s / covered[k] : Number.NaN));
}

/** The nodes of the organisation's fleet that VEN resources name by their attributes, by resource id. */
async function enrolledNodes(ctx: AppContext, organisationId: number, resources: { id: number; attributes: string }[]) {
  const names = new Map<number, { column: 'nmi' | 'serial_number'; value: string }[]>();
  for (const r of resources) {
    const attrs = repo.parseList(r.attributes) as ValuesMap[];
    const found = attrs.flatMap((a) =>
      a.type in ENROLMENT_ATTRIBUTES
        ? a.values
            .filter((v) => typeof v === 'string')
            .map((v) => ({ column: ENROLMENT_ATTRIBUTES[a.type as keyof typeof ENROLMENT_ATTRIBUTES], value: v as string }))
        : [],
    );
    if (found.length) names.set(r.id, found);
  }
  const all = [...names.values()].flat();
  const nodes = await repo.fleetNodesNamed(
    ctx.db,
    organisationId,
    all.filter((n) => n.column === 'nmi').map((n) => n.value),
    all.filter((n) => n.column === 'serial_number').map((n) => n.value),
  );
  const byResource = new Map<number, number>();
  for (const [id, list] of names) {
    const node = nodes.find((n) => list.some((x) => n[x.column] === x.value));
    if (node) byResource.set(id, node.id);
  }
  return byResource;
}

/** What the VENs reported for a console event, per VEN resource, over the given 5-minute buckets. */
export async function venDeliveries(ctx: AppContext, eventId: number, buckets: readonly number[]): Promise<ExternalResponse[]> {
  const organisationId = await repo.eventOrganisation(ctx.db, eventId);
  if (organisationId === undefined) return [];
  const reports = await repo.reports(ctx.db, organisationId, { eventId: `event-${eventId}` });
  if (!reports.length) return [];
  const vens = await repo.vens(ctx.db, organisationId);
  const resources = await repo.resources(
    ctx.db,
    vens.map((v) => v.id),
  );
  const nodeOf = await enrolledNodes(ctx, organisationId, resources);
  const lines = new Map<string, ExternalResponse>();
  for (const r of reports) {
    const ven = vens.find((v) => v.ven_name === r.client_name);
    for (const res of repo.parseList(r.resources) as Report['resources']) {
      const kw = toBuckets(deliveredIntervals(res), buckets);
      if (kw.every(Number.isNaN)) continue;
      const key = `${r.client_name}\u0000${res.resourceName}`;
      const own = ven ? resources.find((x) => x.ven_id === ven.id && x.resource_name === res.resourceName) : undefined;
      const line = lines.get(key) ?? {
        source: r.client_name,
        resource: res.resourceName,
        nodeId: own ? (nodeOf.get(own.id) ?? null) : null,
        kw: new Float64Array(buckets.length).fill(Number.NaN),
      };
      // Reports in the order written: a later one's buckets replace an earlier one's.
      kw.forEach((v, k) => {
        if (!Number.isNaN(v)) line.kw[k] = v;
      });
      lines.set(key, line);
    }
  }
  return [...lines.values()];
}
