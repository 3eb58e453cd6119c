import { type ExpressionBuilder, type Insertable, sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB, NodeCommandTable } from '../db/schema.ts';

// The command outbox's SQL (node_commands): the orders stored, withdrawn and ended
// (devices.commands.ts), claimed, recorded as sent and answered (devices.outbox.ts), and read by
// the figures of other areas. Apart from devices.repo.ts (the devices' records, credentials and
// readings' sequence numbers) by topic: the two together would be one file of 500 lines.

const LIVE = ['PENDING', 'ACCEPTED'] as const;

/** A command as the outbox claims and sends it (and as it reads a node's live commands). */
export interface Claimed {
  id: number;
  node_id: number;
  kind: string;
  params: string;
  start_ts: number;
  end_ts: number;
  created_at: number;
  status: string;
  precedence: number;
  organisation_id: number | null;
  wire: string | null;
}

const CLAIMED = ['id', 'node_id', 'kind', 'params', 'start_ts', 'end_ts', 'created_at', 'status', 'precedence', 'organisation_id', 'wire'] as const;

const asClaimed = <R extends { start_ts: number | bigint; end_ts: number | bigint; created_at: number | bigint }>(c: R) => ({
  ...c,
  start_ts: Number(c.start_ts),
  end_ts: Number(c.end_ts),
  created_at: Number(c.created_at),
});

/** The role of an organisation, for its commands' precedence. */
export async function organisationRole(db: Database, organisationId: number) {
  const row = await db.selectFrom('organisations').select('suborg_type').where('id', '=', organisationId).executeTakeFirstOrThrow();
  return row.suborg_type;
}

/**
 * Marks the live commands of these kinds (`kinds`: those directing the battery) of these nodes, not
 * ended by `at`, to revise. Those marked already are marked again: on PostgreSQL a command an
 * outbox round is claiming shows its mark from before the claim until the round commits, and a
 * condition on the mark would pass over it, to find it unmarked once the round has sent it in the
 * form it read before this order was stored. Written unconditionally, the row waits for the
 * round's commit and keeps the mark.
 */
export async function markToRevise(db: Database, nodeIds: readonly number[], at: number, kinds: readonly string[]): Promise<void> {
  for (let i = 0; i < nodeIds.length; i += 1000)
    await db
      .updateTable('node_commands')
      .set({ revise: 1 })
      .where('node_id', 'in', nodeIds.slice(i, i + 1000))
      .where('end_ts', '>', at)
      .where('kind', 'in', [...kinds])
      .where('status', 'in', [...LIVE])
      .execute();
}

/** Every live command of these nodes not ended by `at` goes out again, in its current form (never sent, to revise, no form on the wire). */
export async function markToResend(db: Database, nodeIds: readonly number[], at: number): Promise<void> {
  for (let i = 0; i < nodeIds.length; i += 1000)
    await db
      .updateTable('node_commands')
      .set({ sent_at: null, revise: 1, wire: null })
      .where('node_id', 'in', nodeIds.slice(i, i + 1000))
      .where('status', 'in', [...LIVE])
      .where('end_ts', '>', at)
      .execute();
}

/** Stores commands, a thousand a statement. */
export async function insertCommands(db: Database, rows: readonly Insertable<NodeCommandTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('node_commands')
      .values(rows.slice(i, i + 1000))
      .execute();
}

/**
 * Withdraws (and marks to revise) a source's live commands not ended by `at`, only those of
 * `nodeIds` when given. Answers each withdrawn command's node and kind.
 */
export async function withdrawSourceCommands(
  db: Database,
  source: string,
  at: number,
  nodeIds?: readonly number[],
): Promise<{ node_id: number; kind: string }[]> {
  const out: { node_id: number; kind: string }[] = [];
  for (let i = 0; i < (nodeIds?.length ?? 1); i += 1000) {
    let q = db
      .updateTable('node_commands')
      .set({ status: 'CANCELLED', revise: 1 })
      .where('source', '=', source)
      .where('end_ts', '>', at)
      .where('status', 'in', [...LIVE]);
    if (nodeIds) q = q.where('node_id', 'in', nodeIds.slice(i, i + 1000));
    out.push(...(await q.returning(['node_id', 'kind']).execute()));
  }
  return out;
}

/**
 * Ends a source's live commands at `at` (only those of `nodeIds` when given), each marked to revise:
 * those to start from `at` on are withdrawn, those under way end at `at`. Answers each one's node
 * and kind, per thousand nodes the withdrawn first.
 */
export async function endSourceCommands(db: Database, source: string, at: number, nodeIds?: readonly number[]): Promise<{ node_id: number; kind: string }[]> {
  const out: { node_id: number; kind: string }[] = [];
  for (let i = 0; i < (nodeIds?.length ?? 1); i += 1000) {
    const chunk = nodeIds?.slice(i, i + 1000);
    let future = db
      .updateTable('node_commands')
      .set({ status: 'CANCELLED', revise: 1 })
      .where('source', '=', source)
      .where('start_ts', '>=', at)
      .where('status', 'in', [...LIVE]);
    let current = db
      .updateTable('node_commands')
      .set({ end_ts: at, revise: 1 })
      .where('source', '=', source)
      .where('start_ts', '<', at)
      .where('end_ts', '>', at)
      .where('status', 'in', [...LIVE]);
    if (chunk) {
      future = future.where('node_id', 'in', chunk);
      current = current.where('node_id', 'in', chunk);
    }
    for (const q of [future, current]) out.push(...(await q.returning(['node_id', 'kind']).execute()));
  }
  return out;
}

/** A source's commands, whatever their status (only those of the first thousand of `nodeIds` when given), as the precedence rule ranks them. */
export async function sourceCommands(db: Database, source: string, nodeIds?: readonly number[]) {
  let q = db
    .selectFrom('node_commands')
    .select(['id', 'node_id', 'kind', 'start_ts', 'end_ts', 'precedence', 'organisation_id', 'status', 'responded_at'])
    .where('source', '=', source);
  if (nodeIds) q = q.where('node_id', 'in', nodeIds.slice(0, 1000));
  return q.execute();
}

/** The live commands of these kinds of these nodes, of any source but `source`, that overlap [from, to). */
export async function otherSourcesCommands(db: Database, nodeIds: readonly number[], source: string, kinds: readonly string[], from: number, to: number) {
  const out = [];
  for (let i = 0; i < nodeIds.length; i += 1000)
    out.push(
      ...(await db
        .selectFrom('node_commands')
        .select(['id', 'node_id', 'kind', 'start_ts', 'end_ts', 'precedence', 'organisation_id'])
        .where('node_id', 'in', nodeIds.slice(i, i + 1000))
        .where('source', '!=', source)
        .where('kind', 'in', [...kinds])
        .where('status', 'in', [...LIVE])
        .where('start_ts', '<', to)
        .where('end_ts', '>', from)
        .execute()),
    );
  return out;
}

/** The parameters of the live export limits of these nodes that overlap [start, end). */
export async function exportLimitsOver(db: Database, nodeIds: readonly number[], start: number, end: number) {
  const out = [];
  for (let i = 0; i < nodeIds.length; i += 1000)
    out.push(
      ...(await db
        .selectFrom('node_commands')
        .select(['node_id', 'params'])
        .where('node_id', 'in', nodeIds.slice(i, i + 1000))
        .where('kind', '=', 'export_limit')
        .where('status', 'in', [...LIVE])
        .where('start_ts', '<', end)
        .where('end_ts', '>', start)
        .execute()),
    );
  return out;
}

/** How each node answered a source's commands. */
export async function commandResponses(db: Database, source: string) {
  return db.selectFrom('node_commands').select(['node_id', 'status', 'responded_at']).where('source', '=', source).execute();
}

/**
 * The live commands (every kind, every source) of these nodes that overlap [start, end): the
 * orders that held them then, as the forecast leaves them out of its error (forecast.service.ts).
 */
export async function ordersOver(db: Database, nodeIds: readonly number[], start: number, end: number) {
  const out = [];
  for (let i = 0; i < nodeIds.length; i += 500)
    out.push(
      ...(await db
        .selectFrom('node_commands')
        .select(['node_id', 'start_ts', 'end_ts', 'params'])
        .where('node_id', 'in', nodeIds.slice(i, i + 500))
        .where('start_ts', '<', end)
        .where('end_ts', '>', start)
        .where('status', 'in', [...LIVE])
        .execute()),
    );
  return out;
}

/**
 * Claims commands of online devices with a credential, not ended by `now`: `due`, those pending and
 * never sent or not answered within `resendS` (marked sent); `revise`, those marked to look at again
 * (a never-sent one marked sent too). At most `limit`, the first by id. The claim re-checks what it
 * selected: of two processes claiming the same rows, one updates none. With `skipLocked`
 * (PostgreSQL) the selection locks its node_commands rows and passes over those another
 * transaction holds (`FOR UPDATE OF node_commands SKIP LOCKED`): the claim never waits.
 */
export async function claimCommands(
  trx: Database,
  which: 'due' | 'revise',
  { now, resendS, limit, skipLocked }: { now: number; resendS: number; limit: number; skipLocked: boolean },
): Promise<Claimed[]> {
  const pick = (eb: ExpressionBuilder<DB, 'node_commands'>) =>
    which === 'due'
      ? eb.and([eb('node_commands.status', '=', 'PENDING'), eb.or([eb('node_commands.sent_at', 'is', null), eb('node_commands.sent_at', '<=', now - resendS)])])
      : eb.and([eb('node_commands.revise', '=', 1), eb('node_commands.status', 'in', ['PENDING', 'ACCEPTED', 'CANCELLED'])]);
  const ids = trx
    .selectFrom('node_commands')
    .innerJoin('device_credentials as d', 'd.node_id', 'node_commands.node_id')
    .innerJoin('nodes as n', 'n.id', 'node_commands.node_id')
    .select('node_commands.id')
    .where('node_commands.end_ts', '>', now)
    .where('n.connection_offline', '=', 0)
    .where(pick)
    .orderBy('node_commands.id')
    .limit(limit)
    .$if(skipLocked, (q) => q.forUpdate('node_commands').skipLocked());
  const rows = await trx
    .updateTable('node_commands')
    // A command looked at again that never went out goes out now: sent, so the next round's `due` does not send it twice.
    .set(which === 'due' ? { sent_at: now, revise: 0 } : { revise: 0, sent_at: sql<number>`coalesce(sent_at, ${now})` })
    .where('id', 'in', ids)
    .where(pick)
    .returning([...CLAIMED])
    .execute();
  return rows.map(asClaimed);
}

/** The serial numbers of these nodes (at most a thousand). */
export async function serialNumbers(db: Database, nodeIds: readonly number[]) {
  return db.selectFrom('nodes').select(['id', 'serial_number']).where('id', 'in', nodeIds).execute();
}

/** The live commands of these kinds of these nodes (at most a thousand) not ended by `now`. */
export async function liveCommands(db: Database, nodeIds: readonly number[], now: number, kinds: readonly string[]): Promise<Claimed[]> {
  const rows = await db
    .selectFrom('node_commands')
    .select([...CLAIMED])
    .where('node_id', 'in', nodeIds)
    .where('end_ts', '>', now)
    .where('kind', 'in', [...kinds])
    .where('status', 'in', [...LIVE])
    .execute();
  return rows.map(asClaimed);
}

/** Records what these commands are sent as (`wire`). */
export async function recordWire(db: Database, ids: readonly number[], form: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000)
    await db
      .updateTable('node_commands')
      .set({ wire: form })
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
}

/** These commands, not sent after all as `form`, are to revise with `wire` what they were sent before; those another round has sent since as something else are left. */
export async function restoreWire(db: Database, ids: readonly number[], wire: string | null, form: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000)
    await db
      .updateTable('node_commands')
      .set({ revise: 1, wire })
      .where('id', 'in', ids.slice(i, i + 1000))
      .where('wire', '=', form)
      .execute();
}

/** The node of each of these commands (by id; those that do not exist are absent). */
export async function commandOwners(db: Database, ids: readonly number[]): Promise<Map<number, number>> {
  const owner = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 1000)
    for (const r of await db
      .selectFrom('node_commands')
      .select(['id', 'node_id'])
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute())
      owner.set(r.id, r.node_id);
  return owner;
}

/** Records a device's answer to these commands of its own still pending; answers the node and kind of each one answered. */
export async function answerCommands(
  db: Database,
  ids: readonly number[],
  answer: { status: 'ACCEPTED' | 'OPTED_OUT' | 'REJECTED'; reason: string | null; at: number },
): Promise<{ node_id: number; kind: string }[]> {
  const out: { node_id: number; kind: string }[] = [];
  for (let i = 0; i < ids.length; i += 1000)
    out.push(
      ...(await db
        .updateTable('node_commands')
        .set({ status: answer.status, responded_at: answer.at, reason: answer.reason })
        .where('id', 'in', ids.slice(i, i + 1000))
        .where('status', '=', 'PENDING')
        .returning(['node_id', 'kind'])
        .execute()),
    );
  return out;
}
