import { z } from 'zod';
import { type Database, nowS } from '../db/database.ts';
import * as repo from './devices.commands.repo.ts';

/**
 * The control interface between the console and the fleet: per-node commands out, responses back.
 * Dispatches, curtailments and outage preparation only ever issue commands here; the simulated
 * devices pick them up over MQTT (devices/devices.outbox.ts) and obey them within their limits.
 */
export const commandSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('battery_power'), kw: z.number() }),
  // CSIP-AUS limits (see physics.ts ExportLimit): net = opModExpLimW, gross = opModGenLimW; standing = DefaultDERControl.
  z.object({
    kind: z.literal('export_limit'),
    kw: z.number(),
    mode: z.enum(['net', 'gross']),
    standing: z.boolean().optional(),
    rampS: z.number().optional(),
    rampFromKw: z.number().nullable().optional(),
  }),
  // CSIP-AUS opModImpLimW: the site's import at the meter held to at most kw (0 or more) by its battery.
  z.object({ kind: z.literal('import_limit'), kw: z.number() }),
  z.object({ kind: z.literal('charge_full') }),
  // A grid outage window: the device holds its battery as backup and islands the home while the grid is out.
  z.object({ kind: z.literal('grid_outage') }),
]);
export type CommandSpec = z.infer<typeof commandSpec>;

/** How a device answers a command when it receives it: it takes it on, or its customer opts out. */
export type CommandAnswer = 'ACCEPTED' | 'OPTED_OUT';

/**
 * Precedence among the commands that direct a node's battery (docs/precedence.md), 0 first: a grid
 * outage's reserve and every event of a network (its grid-safety events: curtailments, limits,
 * outage preparation, RERT, network support) come first, then a retailer's market dispatches, then
 * an installer's. Export and import limits are not ranked: every one binds (the tightest wins).
 */
export const PRECEDENCE = { NETWORK: 0, RETAILER: 1, INSTALLER: 2 } as const;
export type OrganisationRole = keyof typeof PRECEDENCE;

/** The kinds that direct the battery (one at a time per node); limits only bound what it does. */
export const DIRECTING: ReadonlySet<string> = new Set(['battery_power', 'charge_full', 'grid_outage']);

/** A command's precedence: an outage's reserve (and any limit) 0; battery power by its organisation's role. */
export function precedenceOf(spec: Pick<CommandSpec, 'kind'>, role: OrganisationRole): number {
  return spec.kind === 'battery_power' ? PRECEDENCE[role] : 0;
}

/** A stored command as the precedence rule sees it. */
interface Ranked {
  id: number;
  kind: string;
  start: number;
  end: number;
  precedence: number;
  organisationId: number | null;
}

/** Whether `a` comes before `b`: the lower precedence, then the earlier given. */
const before = (a: Ranked, b: Ranked) => a.precedence < b.precedence || (a.precedence === b.precedence && a.id < b.id);

/** [start, end) less the windows given (each [start, end)), as the windows left, in order. */
function subtract(start: number, end: number, cuts: readonly { start: number; end: number }[]): { start: number; end: number }[] {
  let left = [{ start, end }];
  for (const c of cuts) {
    const next: { start: number; end: number }[] = [];
    for (const w of left) {
      if (c.end <= w.start || c.start >= w.end) next.push(w);
      else {
        if (c.start > w.start) next.push({ start: w.start, end: c.start });
        if (c.end < w.end) next.push({ start: c.end, end: w.end });
      }
    }
    left = next;
  }
  return left;
}

/**
 * The windows in which a node follows each of its commands: a command directing the battery holds
 * only where no directing command with precedence over it stands (one instruction per node at a
 * time); limits always hold. Answers, per command, the windows it holds (none: it is set aside).
 */
export function followedWindows<T extends Ranked>(commands: readonly T[]): Map<T, { start: number; end: number }[]> {
  const out = new Map<T, { start: number; end: number }[]>();
  const directing = commands.filter((c) => DIRECTING.has(c.kind));
  for (const c of commands) {
    if (!DIRECTING.has(c.kind)) {
      out.set(c, [{ start: c.start, end: c.end }]);
      continue;
    }
    out.set(
      c,
      subtract(
        c.start,
        c.end,
        directing.filter((o) => o !== c && before(o, c)),
      ),
    );
  }
  return out;
}

/**
 * Marks the live commands directing these nodes' batteries for the outbox to look at again: a
 * command of theirs came, went or was declined, so what each node follows, window by window, may
 * have changed, and its device must be sent the new form (docs/precedence.md, docs/devices.md).
 */
export async function reviseNodes(db: Database, nodeIds: readonly number[], at = nowS()): Promise<void> {
  await repo.markToRevise(db, [...new Set(nodeIds)], at, [...DIRECTING]);
}

/**
 * These nodes' devices are back (they may have restarted and forgotten): every command of theirs
 * still valid goes out again, in its current form, at the outbox's next round. Called in the
 * transaction that records them online, so that no round sees a node online without these marks
 * (marked after, a round in between sent the commands and the marks sent them again).
 */
export async function resendToNodes(db: Database, nodeIds: readonly number[], at = nowS()): Promise<void> {
  await repo.markToResend(
    db,
    [...new Set(nodeIds)].sort((a, b) => a - b),
    at,
  );
}

/** In this process, what is told when commands are stored, withdrawn or ended (the outbox: it sends at once rather than at its next round). */
const listeners = new Set<() => void>();

/** Calls `f` whenever this process stores, withdraws or ends commands; answers the function that stops it. */
export function onCommandsChanged(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

function changed(): void {
  for (const f of listeners) f();
}

export interface NewCommand {
  nodeId: number;
  start: number;
  end: number;
  spec: CommandSpec;
  /** What asked for it, e.g. `dispatch:12`: used to cancel and to report responses. */
  source: string;
}

/**
 * Stores commands, given by an organisation's event (`organisationId`), each with its precedence
 * (docs/precedence.md); commands of no organisation (a test's) rank as a retailer's.
 */
export async function sendCommands(
  db: Database,
  commands: readonly NewCommand[],
  { created = nowS(), organisationId }: { created?: number; organisationId?: number } = {},
): Promise<void> {
  if (!commands.length) return;
  const role = organisationId === undefined ? 'RETAILER' : await repo.organisationRole(db, organisationId);
  await repo.insertCommands(
    db,
    commands.map((c) => ({
      node_id: c.nodeId,
      kind: c.spec.kind,
      start_ts: c.start,
      end_ts: c.end,
      params: JSON.stringify(c.spec),
      source: c.source,
      status: 'PENDING' as const,
      created_at: created,
      responded_at: null,
      organisation_id: organisationId ?? null,
      precedence: precedenceOf(c.spec, role),
    })),
  );
  // A new instruction to a battery may set aside (or be set aside by) the node's others.
  await reviseNodes(
    db,
    commands.filter((c) => DIRECTING.has(c.spec.kind)).map((c) => c.nodeId),
    created,
  );
  changed();
}

/**
 * Withdraws every command of a source that has not finished yet (only those of `nodeIds` when given).
 * An opted-out command keeps its answer; a withdrawn one keeps its `responded_at`, so a report can
 * still tell that the device had accepted it.
 */
export async function cancelCommands(db: Database, source: string, at = nowS(), nodeIds?: readonly number[]): Promise<void> {
  if (nodeIds && !nodeIds.length) return;
  // Marked to revise: the device that was sent it is told it is withdrawn.
  const touched = (await repo.withdrawSourceCommands(db, source, at, nodeIds)).filter((r) => DIRECTING.has(r.kind)).map((r) => r.node_id);
  // What it had set aside on its nodes comes back.
  await reviseNodes(db, touched, at);
  changed();
}

/**
 * Ends a source's commands at `at` (only those of `nodeIds` when given): one under way stops there
 * (what it did before stands), one still to come is withdrawn. Used where an order is replaced from
 * now on rather than called off, as a re-split limit or a default setpoint superseded by a newer one.
 */
export async function endCommands(db: Database, source: string, at: number, nodeIds?: readonly number[]): Promise<void> {
  if (nodeIds && !nodeIds.length) return;
  const touched = (await repo.endSourceCommands(db, source, at, nodeIds)).filter((r) => DIRECTING.has(r.kind)).map((r) => r.node_id);
  await reviseNodes(db, touched, at);
  changed();
}

/**
 * Per node, the seconds in which a source's commands were set aside for another organisation's
 * command with precedence (docs/precedence.md): the node followed that event. Only the seconds are
 * answered, never the other event. `nodeIds` narrows it to those nodes.
 */
export async function precededSeconds(db: Database, source: string, nodeIds?: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (nodeIds && !nodeIds.length) return out;
  // An order withdrawn before its device answered was never followed; one answered and then withdrawn was, up to then.
  const mine = (await repo.sourceCommands(db, source, nodeIds)).filter(
    (r) => DIRECTING.has(r.kind) && (r.status === 'ACCEPTED' || (r.status === 'CANCELLED' && r.responded_at !== null)),
  );
  if (!mine.length) return out;
  const nodes = [...new Set(mine.map((r) => r.node_id))];
  const from = Math.min(...mine.map((r) => r.start_ts));
  const to = Math.max(...mine.map((r) => r.end_ts));
  const byNode = new Map<number, Ranked[]>();
  for (const r of await repo.otherSourcesCommands(db, nodes, source, [...DIRECTING], from, to)) {
    const o = { id: r.id, kind: r.kind, start: r.start_ts, end: r.end_ts, precedence: r.precedence, organisationId: r.organisation_id };
    byNode.set(r.node_id, [...(byNode.get(r.node_id) ?? []), o]);
  }
  for (const r of mine) {
    const me: Ranked = { id: r.id, kind: r.kind, start: r.start_ts, end: r.end_ts, precedence: r.precedence, organisationId: r.organisation_id };
    const over = (byNode.get(r.node_id) ?? []).filter((o) => o.organisationId !== me.organisationId && before(o, me));
    if (!over.length) continue;
    const kept = subtract(me.start, me.end, over).reduce((a, w) => a + w.end - w.start, 0);
    const lost = me.end - me.start - kept;
    if (lost > 0) out.set(r.node_id, (out.get(r.node_id) ?? 0) + lost);
  }
  return out;
}

/**
 * The tightest net export limit (kW) standing on each of these nodes at some time in [start, end),
 * whoever gave it: every limit binds every dispatch on the node (docs/precedence.md).
 */
export async function netExportCaps(db: Database, nodeIds: readonly number[], start: number, end: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const r of await repo.exportLimitsOver(db, nodeIds, start, end)) {
    const spec = commandSpec.parse(JSON.parse(r.params));
    if (spec.kind !== 'export_limit' || spec.mode !== 'net') continue;
    out.set(r.node_id, Math.min(out.get(r.node_id) ?? Number.POSITIVE_INFINITY, Math.max(0, spec.kw)));
  }
  return out;
}
