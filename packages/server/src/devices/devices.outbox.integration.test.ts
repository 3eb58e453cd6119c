import type { DeviceCmdMessage } from '@vpp/shared/devices/schemas';
import { ColumnNode, type KyselyPlugin, sql } from 'kysely';
import { expect, it } from 'vitest';
import { nowS } from '../db/database.ts';
import { node } from '../test/factories.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { waitFor } from '../test/wait.ts';
import { sendCommands } from './devices.commands.ts';
import { CommandOutbox } from './devices.outbox.ts';
import { saveCredential } from './devices.repo.ts';
import { hashSecret, newSecret } from './devices.service.ts';

/**
 * The outbox against orders stored while one of its rounds is under way: whatever the order of the
 * round's statements and the store's, the device ends up sent what it is to follow.
 */
describeEachDatabase('the command outbox while orders are stored', (h) => {
  /**
   * A plugin that holds, once armed, the first statement recording what commands are sent as
   * (`wire`) until released: the round has claimed and read its node's commands, and not
   * committed. Answers the plugin, whether it holds one, and its release.
   */
  function holdAtRecord() {
    const recording = new WeakSet<object>();
    let held = false;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let armed = true;
    const plugin: KyselyPlugin = {
      transformQuery({ node, queryId }) {
        if (node.kind === 'UpdateQueryNode' && node.updates?.some((u) => ColumnNode.is(u.column) && u.column.column.name === 'wire')) recording.add(queryId);
        return node;
      },
      async transformResult({ result, queryId }) {
        if (armed && recording.has(queryId)) {
          armed = false;
          held = true;
          await gate;
        }
        return result;
      },
    };
    return { plugin, held: () => held, release };
  }

  it("sends a command again with its windows cut when an order with precedence is stored while a round records it: the order's mark to look at it again is not lost", async () => {
    const { ctx } = h();
    const retailer = await h().org();
    const installer = await h().org('INSTALLER', 'Solar Fitters');
    const n = await node(h(), [retailer, installer]);
    await saveCredential(ctx.db, n.id, hashSecret(newSecret()), nowS());
    const sent: DeviceCmdMessage[] = [];
    const hold = holdAtRecord();
    // Not started: the test drives its rounds.
    const outbox = new CommandOutbox(
      ctx.db.withPlugin(hold.plugin),
      async (_topic, payload) => {
        sent.push(JSON.parse(payload));
      },
      h().app.log,
      ctx.dialect,
    );
    const idOf = async (source: string) => (await ctx.db.selectFrom('node_commands').select('id').where('source', '=', source).executeTakeFirstOrThrow()).id;
    const now = nowS();
    const window = { nodeId: n.id, start: now - 1, end: now + 600 };

    // The installer's lockout is stored, and a round claims it and records it as sent whole.
    await sendCommands(ctx.db, [{ ...window, spec: { kind: 'battery_power', kw: 0 }, source: 'test:lockout' }], { organisationId: installer });
    const round = outbox.round();
    await waitFor('the round recording the lockout', () => hold.held());
    // Before that round commits, the retailer's discharge over the same window is stored: it has
    // precedence, and marks the node's commands to be looked at again. On PostgreSQL the store waits
    // for the lockout's row the round holds (or, as it did, passes over it); on SQLite the round's
    // transaction holds the one connection, and the whole store runs after it.
    const stored = sendCommands(ctx.db, [{ ...window, spec: { kind: 'battery_power', kw: 3 }, source: 'test:discharge' }], { organisationId: retailer });
    if (ctx.dialect === 'postgres')
      await Promise.race([
        stored,
        waitFor('the store waiting for the round', async () => {
          const r = await sql<{
            n: number;
          }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db);
          return r.rows[0].n > 0;
        }),
      ]);
    hold.release();
    await round;
    await stored;
    const lockout = await idOf('test:lockout');
    const discharge = await idOf('test:discharge');
    expect(sent).toEqual([expect.objectContaining({ id: lockout, validFrom: window.start, validTo: window.end })]);
    expect(sent[0]).not.toHaveProperty('windows');

    // The next round sends the discharge, and the lockout again, set aside for all of its window.
    await outbox.round();
    const last = (id: number) => sent.filter((m) => m.id === id).at(-1);
    expect(last(discharge)).toMatchObject({ validFrom: window.start, validTo: window.end, control: { type: 'batteryPowerW', w: 3000 } });
    expect(last(discharge)).not.toHaveProperty('windows');
    expect(last(lockout)).toMatchObject({ windows: [] });
    expect(sent).toHaveLength(3);
  });
});
