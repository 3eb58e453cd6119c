import type { DeviceCmdMessage } from '@vpp/shared/devices/schemas';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { nowS } from '../db/database.ts';
import { nodeReports } from '../features/nodes/index.ts';
import { node } from '../test/factories.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { waitFor } from '../test/wait.ts';
import { sendCommands } from './devices.commands.ts';
import { DeviceIngest } from './devices.ingest.ts';
import { CommandOutbox } from './devices.outbox.ts';
import { saveCredential } from './devices.repo.ts';
import { hashSecret, newSecret } from './devices.service.ts';

/**
 * Issue 28 item 9, the fault the two-console bench found (docs/performance.md): behind a shared
 * subscription a device's last will and its next state online reach two console processes, each
 * recording them when it gets to them. Here two consoles' sides of the wire (each its own ingest
 * and outbox, as each process has) on one database take them in every order: the later connection
 * holds, each node is online once its device is back, and each command goes out once, by one of
 * them.
 */
describeEachDatabase('two consoles: a device that drops and returns', (h) => {
  /** A device's state online, its connection begun at `ts`. */
  const onlineState = (ts: number) => ({
    online: true,
    ts,
    firmware: '1.0',
    inverterKw: 5,
    batteryKw: 5,
    batteryKwh: 13.5,
    capabilities: { battery: true, solar: true, phases: 1, submeters: [] },
  });

  /** Two consoles' sides of the wire on one database, each its own ingest and outbox (as each process has), and `count` devices with a credential. */
  async function twoConsoles(count: number) {
    const { ctx } = h();
    const org = await h().org();
    const reports = nodeReports(ctx);
    const sent: { serial: string; message: DeviceCmdMessage }[] = [];
    /** Per console, what its broker's acknowledgements wait for (none: they come at once), and how many of its publishes wait. */
    const held: (Promise<void> | null)[] = [null, null];
    const waiting = [0, 0];
    const consoles = [0, 1].map((i) => {
      const outbox = new CommandOutbox(
        ctx.db,
        async (topic, payload) => {
          sent.push({ serial: topic.split('/')[2], message: JSON.parse(payload) });
          waiting[i]++;
          await held[i];
          waiting[i]--;
        },
        h().app.log,
        ctx.dialect,
      );
      // Not started: each test drives the rounds (a device back marks its commands in the transaction that records it).
      const ingest = new DeviceIngest(ctx, h().app.log, reports);
      return { outbox, ingest };
    });
    const devices: { id: number; serial: string }[] = [];
    for (let i = 0; i < count; i++) {
      const n = await node(h(), [org]);
      await saveCredential(ctx.db, n.id, hashSecret(newSecret()), nowS());
      devices.push(n);
    }
    const offline = async () =>
      (
        await ctx.db
          .selectFrom('nodes')
          .select('id')
          .where(
            'id',
            'in',
            devices.map((d) => d.id),
          )
          .where('connection_offline', '=', 1)
          .execute()
      ).map((r) => r.id);
    /** A battery command to each device, stored. */
    async function storeCommands() {
      const now = nowS();
      const source = `test:consoles:${devices[0].id}`;
      await sendCommands(
        ctx.db,
        devices.map((d) => ({ nodeId: d.id, start: now + 60, end: now + 960, spec: { kind: 'battery_power' as const, kw: 2 }, source })),
        { organisationId: org },
      );
      return ctx.db.selectFrom('node_commands').select(['id', 'node_id']).where('source', '=', source).execute();
    }
    /** Both outboxes go round at once until all these commands are out. Each must go out once, to its own device. */
    async function eachOnce(commands: { id: number; node_id: number }[]) {
      await waitFor('every command on the wire', async () => {
        await Promise.all(consoles.map((c) => c.outbox.round()));
        return commands.every((c) => sent.some((s) => s.message.id === c.id));
      });
      const serialOf = new Map(devices.map((d) => [d.id, d.serial]));
      for (const c of commands) {
        const copies = sent.filter((s) => s.message.id === c.id);
        expect(copies).toHaveLength(1);
        expect(copies[0].serial).toBe(serialOf.get(c.node_id));
      }
    }
    const commandEach = async () => eachOnce(await storeCommands());
    /** Console `i`'s broker holds its acknowledgements until the function answered is called. */
    function hold(i: number): () => void {
      let release: () => void = () => undefined;
      held[i] = new Promise<void>((r) => {
        release = r;
      });
      return () => {
        held[i] = null;
        release();
      };
    }
    return { ctx, consoles, devices, offline, storeCommands, eachOnce, commandEach, hold, waiting };
  }

  it('is online whichever console records its last will and its next state first, and gets each command once', async () => {
    const { ctx, consoles, devices, offline, commandEach } = await twoConsoles(24);
    const take = (c: number, serial: string, s: object) => consoles[c].ingest.handle(serial, 'state', Buffer.from(JSON.stringify(s)));

    // Each device connected at `first` (console 0 recorded it), dropped, and connected again at
    // `again`: the broker's last will (of the first connection) went to console 0, the state online
    // of the second to console 1.
    const first = nowS() - 60;
    await Promise.all(devices.map((d) => take(0, d.serial, onlineState(first))));
    await Promise.all(
      devices.map(async (d, i) => {
        // A quarter back within the same second as they first connected (the connection's fraction tells them apart).
        const again = i % 4 === 3 ? first + 0.5 : first + 30;
        const will = () => take(0, d.serial, { online: false, ts: first });
        const back = () => take(1, d.serial, onlineState(again));
        if (i % 4 === 0 || i % 4 === 3) {
          // The state online recorded before the will that came before it.
          await back();
          await will();
        } else if (i % 4 === 1) {
          await will();
          await back();
        } else await Promise.all([will(), back()]);
      }),
    );

    expect(await offline()).toEqual([]);
    // Each node's log: offline and back alternate (no return recorded twice), and it ends online.
    const events = await ctx.db
      .selectFrom('node_events')
      .select(['node_id', 'event_type'])
      .where(
        'node_id',
        'in',
        devices.map((d) => d.id),
      )
      .where('event_type', 'in', ['NODE_OFFLINE', 'NODE_ONLINE'])
      .orderBy('id')
      .execute();
    for (const d of devices) {
      const log = events.filter((e) => e.node_id === d.id).map((e) => e.event_type);
      expect(log.every((e, i) => i === 0 || e !== log[i - 1])).toBe(true);
      if (log.length) expect(log.at(-1)).toBe('NODE_ONLINE');
    }

    // A dispatch's command to each: both consoles' outboxes go round at once; each command goes out once.
    await commandEach();
  });

  it('decides on what the other console committed while it waited for the node', async () => {
    // PostgreSQL only: on SQLite one writer runs the consoles' transactions in turn, with nothing to wait for.
    if (h().dialect !== 'postgres') return;
    const { ctx, consoles, devices, offline, commandEach } = await twoConsoles(1);
    const [d] = devices;
    const first = nowS() - 60;
    await consoles[0].ingest.handle(d.serial, 'state', Buffer.from(JSON.stringify(onlineState(first))));
    // Console 1 records the device's next connection (its state online) and holds the node's row,
    // as its transaction does, while console 0 takes the last will of the first connection.
    let will: Promise<void> = Promise.resolve();
    await ctx.db.transaction().execute(async (trx) => {
      await trx.selectFrom('nodes').select('id').where('id', '=', d.id).forUpdate().execute();
      await trx
        .updateTable('device_status')
        .set({ state_json: JSON.stringify(onlineState(first + 30)), state_since: first + 30 })
        .where('node_id', '=', d.id)
        .execute();
      will = consoles[0].ingest.handle(d.serial, 'state', Buffer.from(JSON.stringify({ online: false, ts: first })));
      await waitFor('console 0 waiting for the node', async () => {
        const r = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db);
        return r.rows[0].n > 0;
      });
    });
    await will;
    expect(await offline()).toEqual([]);
    await commandEach();
  });

  it('takes a device that does not say when it connected as back by its readings, whichever console recorded its last will', async () => {
    const { consoles, devices, offline, commandEach } = await twoConsoles(6);
    let seq = 0;
    const reading = (c: number, serial: string) =>
      consoles[c].ingest.handle(serial, 'telemetry', Buffer.from(JSON.stringify({ seq: ++seq, ts: nowS() - 60 + seq, dt: 30, meterPower: 1 })));
    // Console 1 has each device's node in hand (online), console 0 then takes its last will, and
    // console 1 its next reading: the device is back, though console 1 never saw it go.
    await Promise.all(devices.map((d) => reading(1, d.serial)));
    await Promise.all(devices.map((d) => consoles[0].ingest.handle(d.serial, 'state', Buffer.from('{"online":false}'))));
    expect(await offline()).toHaveLength(devices.length);
    await Promise.all(devices.map((d) => reading(1, d.serial)));
    expect(await offline()).toEqual([]);
    await commandEach();
  });

  it('sends a device back each command stored while it was away once, though the other console goes round as its return is recorded', async () => {
    const { consoles, devices, offline, storeCommands, eachOnce } = await twoConsoles(12);
    const take = (serial: string, s: object) => consoles[0].ingest.handle(serial, 'state', Buffer.from(JSON.stringify(s)));
    const first = nowS() - 60;
    await Promise.all(devices.map((d) => take(d.serial, onlineState(first))));
    await Promise.all(devices.map((d) => take(d.serial, { online: false, ts: first })));
    expect(await offline()).toHaveLength(devices.length);
    const commands = await storeCommands();
    // Console 0 records each device's return while console 1's outbox goes round without pause: a
    // round that sees a device online sends its commands, and nothing sends them a second time.
    let returning = true;
    const rounds = (async () => {
      // Yielding between rounds: SQLite's statements settle without one, and the states would never be taken.
      while (returning) {
        await consoles[1].outbox.round();
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all(devices.map((d, i) => take(d.serial, onlineState(first + 30 + i))));
    returning = false;
    await rounds;
    expect(await offline()).toEqual([]);
    await eachOnce(commands);
  });

  it("sends a command once though its node's commands are marked to be looked at again while it is on its way", async () => {
    const { ctx, consoles, devices, storeCommands, eachOnce, hold, waiting } = await twoConsoles(1);
    const [d] = devices;
    const [first] = await storeCommands();
    // Console 0 claims the command and sends it; the broker has not acknowledged it yet.
    const release = hold(0);
    const round = consoles[0].outbox.round();
    await waitFor('console 0 sending the command', () => waiting[0] === 1);
    // Meanwhile another order for the node is stored, later (its commands are marked to be looked
    // at again: what the node follows may have changed), and console 1 goes round.
    const now = nowS();
    await sendCommands(ctx.db, [{ nodeId: d.id, start: now + 1200, end: now + 1800, spec: { kind: 'battery_power', kw: 1 }, source: 'test:later' }]);
    await consoles[1].outbox.round();
    release();
    await round;
    const later = await ctx.db.selectFrom('node_commands').select(['id', 'node_id']).where('source', '=', 'test:later').execute();
    // The first unchanged goes out once (console 0 sent it), the later once.
    await eachOnce([first, ...later]);
  });
});
