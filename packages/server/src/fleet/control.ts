import { z } from 'zod';
import { type Database, nowS } from '../db/database.ts';

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
  z.object({ kind: z.literal('charge_full') }),
  // A grid outage window: the device holds its battery as backup and islands the home while the grid is out.
  z.object({ kind: z.literal('grid_outage') }),
]);
export type CommandSpec = z.infer<typeof commandSpec>;

export interface NewCommand {
  nodeId: number;
  start: number;
  end: number;
  spec: CommandSpec;
  /** What asked for it, e.g. `dispatch:12`: used to cancel and to report responses. */
  source: string;
}

export async function sendCommands(db: Database, commands: readonly NewCommand[], created = nowS()): Promise<void> {
  for (let i = 0; i < commands.length; i += 1000) {
    await db
      .insertInto('node_commands')
      .values(
        commands.slice(i, i + 1000).map((c) => ({
          node_id: c.nodeId,
          kind: c.spec.kind,
          start_ts: c.start,
          end_ts: c.end,
          params: JSON.stringify(c.spec),
          source: c.source,
          status: 'PENDING' as const,
          created_at: created,
          responded_at: null,
        })),
      )
      .execute();
  }
}

/**
 * Withdraws every command of a source that has not finished yet (only those of `nodeIds` when given).
 * An opted-out command keeps its answer; a withdrawn one keeps its `responded_at`, so a report can
 * still tell that the device had accepted it.
 */
export async function cancelCommands(db: Database, source: string, at = nowS(), nodeIds?: readonly number[]): Promise<void> {
  if (nodeIds && !nodeIds.length) return;
  for (let i = 0; i < (nodeIds?.length ?? 1); i += 1000) {
    let q = db
      .updateTable('node_commands')
      .set({ status: 'CANCELLED' })
      .where('source', '=', source)
      .where('end_ts', '>', at)
      .where('status', 'in', ['PENDING', 'ACCEPTED']);
    if (nodeIds) q = q.where('node_id', 'in', nodeIds.slice(i, i + 1000));
    await q.execute();
  }
}

/**
 * Ends a source's commands at `at` (only those of `nodeIds` when given): one under way stops there
 * (what it did before stands), one still to come is withdrawn. Used where an order is replaced from
 * now on rather than called off, as a re-split limit or a default setpoint superseded by a newer one.
 */
export async function endCommands(db: Database, source: string, at: number, nodeIds?: readonly number[]): Promise<void> {
  if (nodeIds && !nodeIds.length) return;
  for (let i = 0; i < (nodeIds?.length ?? 1); i += 1000) {
    const chunk = nodeIds?.slice(i, i + 1000);
    let future = db
      .updateTable('node_commands')
      .set({ status: 'CANCELLED' })
      .where('source', '=', source)
      .where('start_ts', '>=', at)
      .where('status', 'in', ['PENDING', 'ACCEPTED']);
    let current = db
      .updateTable('node_commands')
      .set({ end_ts: at })
      .where('source', '=', source)
      .where('start_ts', '<', at)
      .where('end_ts', '>', at)
      .where('status', 'in', ['PENDING', 'ACCEPTED']);
    if (chunk) {
      future = future.where('node_id', 'in', chunk);
      current = current.where('node_id', 'in', chunk);
    }
    await future.execute();
    await current.execute();
  }
}

/** How each node answered a source's commands. */
export async function commandResponses(db: Database, source: string) {
  return db.selectFrom('node_commands').select(['node_id', 'status', 'responded_at']).where('source', '=', source).execute();
}
