import type { SuborgType } from '@vpp/shared/constants';
import type { DeviceCredential, NodeDevice } from '@vpp/shared/devices/endpoints';
import { formatDateTime, formatDuration, formatPower } from '@vpp/shared/format';
import { type MeterGroup, type Node, type NodeDetail, type NodeEvent, type NodeListQuery, type NodeMetric, nodeStatus } from '@vpp/shared/nodes/schemas';
import { escapeMarkdown } from '@vpp/shared/notifications/markdown';
import { OUTAGE_REASON_LABELS, type OutageReason } from '@vpp/shared/outages/messages';
import { hasPermission } from '@vpp/shared/permissions/registry';
import { endOfPeriod, type Period, periodOfInterval } from '@vpp/shared/time';
import { nowS } from '../../db/database.ts';
import * as devices from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { bucketTimes, buildSeries, METRIC_TO_COLUMN, submeterBuckets } from '../../telemetry/index.ts';
import { notifyOrganisation } from '../notifications/index.ts';
import * as repo from './nodes.repo.ts';

/** The fields of a node that leave the server; installers see the NMI but not the network. */
export function presentNode(r: repo.NodeRow, suborgType: SuborgType): Node {
  const ping = { lastTimestamp: r.last_contact, connectionOffline: r.connection_offline === 1 };
  const node = {
    id: r.id,
    siteLabel: r.site_label,
    address: {
      lat: r.lat,
      lng: r.lng,
      street: r.street,
      suburb: r.suburb,
      state: r.state as Node['address']['state'],
      postcode: r.postcode,
      text: `${r.street}, ${r.suburb} ${r.state} ${r.postcode}`,
    },
    network: { nmi: r.nmi, network: suborgType === 'INSTALLER' ? null : r.network },
    timezone: r.timezone,
    system: {
      reposit: { serialNumber: r.serial_number },
      inverter: [{ brand: r.inverter_brand }],
      battery: r.battery_brand ? [{ brand: r.battery_brand }] : [],
    },
    state: r.unit_state,
    status: { ping },
    phases: r.phases,
    hasSolar: r.solar_kw > 0,
    hasBattery: r.battery_kwh > 0,
    hasInverter: true,
    solarCapacity: r.solar_kw,
    reposit: { serialNumber: r.serial_number, product: r.product, state: r.unit_state, commissionedDate: r.commissioned_at },
  };
  return { ...node, displayStatus: nodeStatus(node) };
}

/** One page of a node's event log as the caller's organisation sees it (its own dispatches and outages, the node's history). */
/** A page of the organisation's nodes as the list answers it, with the nameplate sums when asked. */
export async function listNodes(ctx: AppContext, user: AuthUser, q: NodeListQuery) {
  const { rows, total, nameplate } = await repo.listNodes(ctx.db, user.organisationId, q);
  return { deployments: rows.map((r) => presentNode(r, user.row.suborg_type)), total, ...(nameplate ? { nameplate } : {}) };
}

export async function nodeEvents(ctx: AppContext, user: AuthUser, id: number, limit: number, offset: number) {
  await requireNode(ctx, user, id);
  const { rows, total } = await repo.nodeEvents(ctx.db, user.organisationId, id, nowS(), limit, offset);
  const data: NodeEvent[] = [];
  for (const r of rows) {
    const e = presentNodeEvent(r);
    // A dispatch the node set aside, for a time, to follow another organisation's event with precedence (never named: docs/precedence.md).
    if (r.description === null && r.kind !== 'GRID_OUTAGE') {
      const s = (await devices.precededSeconds(ctx.db, `dispatch:${r.id}`, [id])).get(id);
      if (s) e.description += ` For ${formatDuration(s)} the node followed another organisation's event with precedence.`;
    }
    data.push(e);
  }
  return { data, meta: { total, pageCount: Math.ceil(total / limit) } };
}

/** The Event Log's line for a stored row: the node's own lines as written, an event's described from what the node was asked to do. */
export function presentNodeEvent(r: repo.NodeLogRow): NodeEvent {
  if (r.description !== null) return { id: r.id, ts: r.ts, eventType: r.kind, description: r.description, duration: r.duration };
  const of = r.powerstation_name ? ` of ${r.powerstation_name}` : '';
  // The node's part ends early when the event was cancelled or the node was dropped from it.
  const cut = [r.cancelled_at, r.dropped_at].filter((t): t is number => t !== null && t < r.ts + (r.duration ?? 0));
  const end = cut.length ? Math.min(...cut) : null;
  const duration = end === null ? r.duration : end - r.ts;
  let text: string;
  if (r.kind === 'GRID_OUTAGE') {
    const reason = OUTAGE_REASON_LABELS[r.outage_reason as OutageReason] ?? r.outage_reason;
    text =
      r.opted_out_at !== null
        ? `Grid outage ${r.id}${of} (${reason}): the customer opted out; the battery was not prepared.`
        : r.orders_sent_at === null
          ? `Grid outage ${r.id}${of} (${reason}): the node was not reporting and got no orders.`
          : `Grid outage ${r.id}${of} (${reason}): the battery was told to charge to full before the outage.`;
  } else {
    const kw = r.share_kw ?? 0;
    const asked = kw === 0 ? 'the battery was held idle (lockout)' : `the battery was asked to ${kw < 0 ? 'discharge' : 'charge'} ${formatPower(Math.abs(kw))}`;
    text = `${r.kind === 'RERT' ? 'RERT dispatch' : 'Dispatch'} ${r.id}${of}: ${asked}.`;
    // Issue 34 item 12: the customer opted out in the app.
    if (r.opted_out_at !== null)
      text +=
        r.opted_out_at <= r.ts
          ? ' The customer opted out before the start; the battery took no part.'
          : ` The customer opted out after ${formatDuration(r.opted_out_at - r.ts)}.`;
  }
  if (end !== null && duration !== null)
    text +=
      end === r.cancelled_at
        ? ` Cancelled after ${formatDuration(duration)}.`
        : ` The node stopped reporting and was dropped after ${formatDuration(duration)}.`;
  return { id: r.id, ts: r.ts, eventType: r.kind, description: text, duration };
}

/** A node of the caller's fleet, or 404: another organisation's node is never revealed. */
export async function requireNode(ctx: AppContext, user: AuthUser, id: number): Promise<repo.NodeRow> {
  const row = await repo.findNode(ctx.db, user.organisationId, id);
  if (!row) throw notFound('node');
  return row;
}

export async function nodeDetail(ctx: AppContext, user: AuthUser, id: number): Promise<NodeDetail> {
  const row = await requireNode(ctx, user, id);
  const system = repo.parseSystem(row);
  const sortMeters = (groups: MeterGroup[]) => groups.map((g) => ({ ...g, meters: [...g.meters].sort((a, b) => a.hwid.localeCompare(b.hwid)) }));
  return {
    ...presentNode(row, user.row.suborg_type),
    energySystems: system.energySystems,
    gridMeters: sortMeters(system.gridMeters),
    solarMeters: sortMeters(system.solarMeters),
    subMeterGroups: sortMeters(system.subMeterGroups),
    subMeters: await repo.nodeSubmeters(ctx.db, id),
  };
}

/** The node's device as its page shows it: never the secret. */
export async function nodeDevice(ctx: AppContext, user: AuthUser, id: number): Promise<NodeDevice> {
  return devices.nodeDevice(ctx, await requireNode(ctx, user, id));
}

/** Issues the node's device credential, or replaces it (devices: the old secret stops working). */
export async function issueDeviceCredential(ctx: AppContext, user: AuthUser, id: number): Promise<DeviceCredential> {
  return devices.issueCredential(ctx, await requireNode(ctx, user, id));
}

/** A node's series keyed by epoch seconds; with `fill`, every bucket is present (null where no data). */
export async function nodeSeries(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  q: { metrics: NodeMetric[]; start: number; end: number; interval: number; fill?: 'null' },
): Promise<Record<string, Record<string, number | null>>> {
  if (q.metrics.includes('meterSGA') && !hasPermission(user.permissions, 'fleet.node.sga_data.view')) throw forbidden();
  const row = await requireNode(ctx, user, id);
  const cols = [...new Set(q.metrics.map((m) => METRIC_TO_COLUMN[m]))];
  const data = await ctx.telemetry.nodeSeries(id, cols, q.start, q.end, q.interval);
  const keys = q.fill === 'null' ? bucketTimes(q.start, q.end, q.interval, row.timezone, { localHours: true }) : data.keys();
  return buildSeries(keys, data, q.metrics, (m) => METRIC_TO_COLUMN[m]);
}

/** Energy totals of the node's local day, week or month starting at `start` (the interval names the period). */
export async function nodeSummary(ctx: AppContext, user: AuthUser, id: number, q: { start: number; interval: number }) {
  const row = await requireNode(ctx, user, id);
  const period = periodOfInterval(q.interval) as Period | null;
  if (!period) throw badRequest('interval must be 300 (day), 3600 (week) or 86400 (month).');
  const end = endOfPeriod(q.start, period, row.timezone);
  const e = await ctx.telemetry.nodeEnergy(id, q.start, end);
  const r2 = (v: number) => Math.round(v * 100) / 100;
  return {
    summary: {
      meterImport: r2(e.meterImport),
      meterExport: r2(e.meterExport),
      solarGeneration: r2(e.solarGeneration),
      houseConsumption: r2(e.houseConsumption),
    },
    start: q.start,
    end,
  };
}

/** One submeter of the node: power and reactive power at 5 minutes or coarser. */
export async function submeterSeries(ctx: AppContext, user: AuthUser, nodeId: number, q: { id: number; start: number; end: number; delta_t: number }) {
  const node = await requireNode(ctx, user, nodeId);
  const subs = await repo.nodeSubmeters(ctx.db, nodeId);
  if (!subs.some((s) => s.id === q.id)) throw notFound('submeter');
  const rows = await ctx.telemetry.submeterSeries(q.id, q.start, q.end);
  const buckets = submeterBuckets(rows, q.delta_t, node.timezone, q.start, q.end);
  return Object.fromEntries([...buckets].map(([t, b]) => [t, b]));
}

export async function setSiteLabel(ctx: AppContext, user: AuthUser, id: number, label: string): Promise<Node> {
  const row = await requireNode(ctx, user, id);
  await repo.setSiteLabel(ctx.db, user.organisationId, row.id, label === '' ? null : label);
  return presentNode({ ...row, site_label: label === '' ? null : label }, user.row.suborg_type);
}

/**
 * Tells every organisation whose fleet holds the node that it went offline or came back. Only live
 * changes notify: outages replayed while history is backfilled are in the node's event log only.
 */
export async function notifyNodeStatus(ctx: AppContext, change: { nodeId: number; ts: number; online: boolean }, now = nowS()): Promise<void> {
  if (now - change.ts > 900) return;
  const node = await repo.nodeAddress(ctx.db, change.nodeId);
  if (!node) return;
  const orgs = await repo.fleetsHolding(ctx.db, change.nodeId);
  const address = `${node.street}, ${node.suburb} ${node.state}`;
  const when = formatDateTime(change.ts, node.timezone);
  // Each organisation reads its own label; a label is user-written, so it is text, never markdown.
  const contentFor = (label: string | null) => {
    const name = escapeMarkdown(label ? `${label} (${address})` : address);
    return change.online
      ? {
          summary: `Node ${change.nodeId} is back online`,
          body: `**${name}** is reporting again since ${when}.\n\n[Open node ${change.nodeId}](/fleet-monitoring/nodes/${change.nodeId})`,
        }
      : {
          summary: `Node ${change.nodeId} is offline`,
          body: `**${name}** stopped reporting at ${when}.\n\n[Open node ${change.nodeId}](/fleet-monitoring/nodes/${change.nodeId})`,
        };
  };
  for (const o of orgs) await notifyOrganisation(ctx, o.organisation_id, contentFor(o.site_label), { permission: 'fleet.node.any' });
}

/** A node as a map point: where it is and its display status. */
export function presentMapNode(r: Pick<repo.NodeRow, 'id' | 'lat' | 'lng' | 'site_label' | 'unit_state' | 'last_contact' | 'connection_offline'>) {
  return {
    id: r.id,
    lat: r.lat,
    lng: r.lng,
    siteLabel: r.site_label,
    displayStatus: nodeStatus({ state: r.unit_state, status: { ping: { lastTimestamp: r.last_contact, connectionOffline: r.connection_offline === 1 } } }),
  };
}
