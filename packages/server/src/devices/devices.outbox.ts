import { type DeviceAck, type DeviceCmdMessage, type DeviceCommand, type DeviceControl, deviceTopics } from '@vpp/shared/devices/schemas';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, type DialectName, nowS } from '../db/database.ts';
import type { Claimed } from './devices.commands.repo.ts';
import * as repo from './devices.commands.repo.ts';
import { type CommandSpec, DIRECTING, followedWindows, onCommandsChanged, reviseNodes } from './devices.commands.ts';

/** A command not acknowledged this long after it was sent goes out again (QoS 1 covers the wire; this covers a device that restarted before answering). */
export const RESEND_S = 30;
/** Commands claimed per round. */
const CLAIM = 2000;
/** Answers recorded per transaction. */
const ANSWERS = 5000;

/** The wire form of a command the dispatches, curtailments and outages ordered (docs/devices.md). */
export function toControl(spec: CommandSpec): DeviceControl {
  switch (spec.kind) {
    case 'battery_power':
      return { type: 'batteryPowerW', w: Math.round(spec.kw * 1000) };
    case 'export_limit':
      return {
        type: spec.mode === 'net' ? 'opModExpLimW' : 'opModGenLimW',
        w: Math.round(spec.kw * 1000),
        ...(spec.rampS !== undefined ? { rampS: spec.rampS } : {}),
        ...(spec.rampFromKw !== undefined ? { rampFromW: spec.rampFromKw === null ? null : Math.round(spec.rampFromKw * 1000) } : {}),
        ...(spec.standing !== undefined ? { standing: spec.standing } : {}),
      };
    case 'import_limit':
      return { type: 'opModImpLimW', w: Math.max(0, Math.round(spec.kw * 1000)) };
    case 'charge_full':
      return { type: 'chargeToFull' };
    case 'grid_outage':
      return { type: 'outageReserve' };
  }
}

/**
 * What a device is to be sent for each of these commands, with the precedence rule already applied
 * (docs/precedence.md): a live command with the windows in which its node follows it (`windows` left
 * out where that is all of it), a withdrawal for one withdrawn after it was sent, or nothing (null)
 * for one withdrawn before. `live` are the node's commands that direct its battery and still stand.
 */
export function wireForms(claimed: readonly Claimed[], live: readonly Claimed[]): Map<number, { form: string; message: DeviceCmdMessage } | null> {
  const out = new Map<number, { form: string; message: DeviceCmdMessage } | null>();
  const byNode = new Map<number, Map<number, Claimed>>();
  for (const c of [...live, ...claimed.filter((c) => c.status === 'PENDING' || c.status === 'ACCEPTED')]) {
    if (!DIRECTING.has(c.kind)) continue;
    const m = byNode.get(c.node_id) ?? new Map<number, Claimed>();
    m.set(c.id, c);
    byNode.set(c.node_id, m);
  }
  const followed = new Map<number, { start: number; end: number }[]>();
  for (const m of byNode.values()) {
    const ranked = [...m.values()].map((c) => ({
      id: c.id,
      kind: c.kind,
      start: Number(c.start_ts),
      end: Number(c.end_ts),
      precedence: c.precedence,
      organisationId: c.organisation_id,
    }));
    for (const [c, windows] of followedWindows(ranked)) followed.set(c.id, windows);
  }
  // A dispatch's thousands of commands share their parameters: each distinct text read once.
  const controls = new Map<string, DeviceControl>();
  for (const c of claimed) {
    if (c.status !== 'PENDING' && c.status !== 'ACCEPTED') {
      out.set(c.id, c.wire === null ? null : { form: 'cancel', message: { id: c.id, cancel: true } });
      continue;
    }
    const start = Number(c.start_ts);
    const end = Number(c.end_ts);
    const windows = followed.get(c.id) ?? [{ start, end }];
    const whole = windows.length === 1 && windows[0].start === start && windows[0].end === end;
    const message: DeviceCommand = {
      id: c.id,
      createdAt: Number(c.created_at),
      validFrom: start,
      validTo: end,
      control: controls.get(c.params) ?? (controls.set(c.params, toControl(JSON.parse(c.params) as CommandSpec)).get(c.params) as DeviceControl),
      ...(whole ? {} : { windows: windows.map((w) => ({ from: w.start, to: w.end })) }),
    };
    out.set(c.id, { form: JSON.stringify([end, whole ? null : message.windows]), message });
  }
  return out;
}

/**
 * The durable command outbox (node_commands) on the wire. Each round claims, of online devices that
 * hold a credential, the commands still valid that were never sent or not answered within RESEND_S,
 * and those marked to revise (their node's commands changed), marking them sent in the same
 * statement (so two console processes never both send one). It resolves the precedence among the
 * node's commands (docs/precedence.md) and sends each device only what it is to follow: a command
 * with the windows in which the node follows it, again when those windows or its end change, and a
 * withdrawal when it is withdrawn. What each command is sent as (`wire`) is recorded in the claim's
 * transaction, before it goes out: a command marked to revise while on its way (another order for
 * its node stored meanwhile) is looked at against what is being sent, not sent again as if it had
 * never gone. A device that returns gets its commands still valid at once; an answer records the
 * device's result, which the dispatch, curtailment and outage figures read.
 */
export class CommandOutbox {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private unlisten: (() => void) | null = null;
  /** A round asked for while one runs: it runs once that one ends (what was stored meanwhile may not have been claimed). */
  private again = false;
  readonly counts = { sent: 0, acks: 0 };

  constructor(
    private readonly db: Database,
    private readonly publish: (topic: string, payload: string) => Promise<void>,
    private readonly log: FastifyBaseLogger,
    private readonly dialect: DialectName,
  ) {}

  start(everyMs = 1000): void {
    const loop = () => {
      void this.round()
        .catch((err) => this.log.error({ err }, 'command outbox round failed'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(loop, everyMs);
        });
    };
    this.timer = setTimeout(loop, 0);
    // Commands this process stored (a dispatch's orders, a withdrawal) go out at once, once their
    // transaction has committed, not at the next round.
    this.unlisten = onCommandsChanged(() => setImmediate(() => this.soon()));
  }

  /**
   * A round at once, or, while one runs, once it ends (it may have claimed before what was stored
   * meanwhile): commands were stored, or devices came back (devices.commands.ts, resendToNodes).
   * Nothing while stopped.
   */
  soon(): void {
    if (!this.timer) return;
    if (this.running) this.again = true;
    else void this.round().catch((err) => this.log.error({ err }, 'command outbox round failed'));
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.unlisten?.();
    this.unlisten = null;
  }

  /** One round. */
  round(): Promise<void> {
    this.running ??= this.send().finally(() => {
      this.running = null;
      if (this.again && this.timer) {
        this.again = false;
        void this.round().catch((err) => this.log.error({ err }, 'command outbox round failed'));
      }
    });
    return this.running;
  }

  /**
   * Claims commands of online devices with a credential, still valid: `due`, those pending and never
   * sent or not answered within RESEND_S (marked sent); `revise`, those marked to look at again. The
   * claim re-checks what it selected: of two processes claiming the same rows, one updates none. On
   * PostgreSQL it passes over rows another transaction holds (another round's claim, whose `wire` is
   * not recorded yet): they are looked at once it has committed, and the claim never waits.
   */
  private claim(trx: Database, now: number, which: 'due' | 'revise'): Promise<Claimed[]> {
    return repo.claimCommands(trx, which, { now, resendS: RESEND_S, limit: CLAIM, skipLocked: this.dialect === 'postgres' });
  }

  private async send(): Promise<void> {
    for (;;) {
      const { outgoing, full } = await this.db.transaction().execute((trx) => this.claimAndRecord(trx, nowS()));
      const failed = new Map<string, { wire: string | null; form: string; ids: number[] }>();
      await Promise.all(
        outgoing.map(async (o) => {
          try {
            await this.publish(o.topic, JSON.stringify(o.message));
            this.counts.sent++;
          } catch (err) {
            this.log.warn({ err, command: o.id }, 'command not sent; it goes out again');
            const key = JSON.stringify([o.was, o.form]);
            const f = failed.get(key) ?? { wire: o.was, form: o.form, ids: [] };
            f.ids.push(o.id);
            failed.set(key, f);
          }
        }),
      );
      // Not sent: what the device was last sent is what it had, unless another round has sent it since.
      for (const f of failed.values()) await repo.restoreWire(this.db, f.ids, f.wire, f.form);
      if (!full) return;
    }
  }

  /**
   * In one transaction: claims what is due and what is to be looked at again, works out what each
   * device is to be sent, and records it as sent (`wire`). Answers the messages to publish (once
   * committed), each with what its command had been sent before, and whether a claim was full.
   */
  private async claimAndRecord(trx: Database, now: number) {
    const due = await this.claim(trx, now, 'due');
    const revised = await this.claim(trx, now, 'revise');
    const full = due.length >= CLAIM || revised.length >= CLAIM;
    const force = new Set(due.map((c) => c.id));
    // In the order given (an UPDATE … RETURNING keeps none).
    const claimed = [...due, ...revised].sort((a, b) => a.id - b.id);
    const outgoing: { id: number; topic: string; message: DeviceCmdMessage; form: string; was: string | null }[] = [];
    if (!claimed.length) return { outgoing, full };
    const nodeIds = [...new Set(claimed.map((c) => c.node_id))];
    const serials = new Map<number, string>();
    const live: Claimed[] = [];
    for (let i = 0; i < nodeIds.length; i += 1000) {
      const chunk = nodeIds.slice(i, i + 1000);
      for (const n of await repo.serialNumbers(trx, chunk)) serials.set(n.id, n.serial_number);
      live.push(...(await repo.liveCommands(trx, chunk, now, [...DIRECTING])));
    }
    const forms = wireForms(claimed, live);
    const byForm = new Map<string, number[]>();
    for (const c of claimed) {
      const f = forms.get(c.id);
      // Unchanged since it was last sent (or withdrawn before it went out): nothing to send.
      if (!f || (!force.has(c.id) && f.form === c.wire)) continue;
      outgoing.push({ id: c.id, topic: deviceTopics(serials.get(c.node_id) as string).cmd, message: f.message, form: f.form, was: c.wire });
      const ids = byForm.get(f.form);
      if (ids) ids.push(c.id);
      else byForm.set(f.form, [c.id]);
    }
    for (const [form, ids] of byForm) await repo.recordWire(trx, ids, form);
    return { outgoing, full };
  }

  /** Answers waiting for the next write, each settled once it is recorded. */
  private answers: { nodeId: number; ack: DeviceAck; done: () => void; failed: (err: unknown) => void }[] = [];
  private recording: Promise<void> | null = null;

  /**
   * A device's answer to one of its own commands; an answer to a command no longer pending
   * (withdrawn, answered before) changes nothing. Settles once recorded. The answers that arrive
   * while one write is under way are recorded together in the next, in one transaction: a dispatch's
   * thousands of answers are a few writes, not one each (each its own commit, holding the
   * connection that the outbox's next rounds wait for).
   */
  ack(nodeId: number, ack: DeviceAck): Promise<void> {
    this.counts.acks++;
    return new Promise<void>((done, failed) => {
      this.answers.push({ nodeId, ack, done, failed });
      this.recording ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.record());
    });
  }

  private async record(): Promise<void> {
    while (this.answers.length) {
      const batch = this.answers.splice(0, ANSWERS);
      try {
        await this.recordAnswers(batch);
        for (const a of batch) a.done();
      } catch (err) {
        for (const a of batch) a.failed(err);
      }
    }
    this.recording = null;
  }

  private async recordAnswers(batch: readonly { nodeId: number; ack: DeviceAck }[]): Promise<void> {
    const at = nowS();
    // One answer per command (a device that answered twice: its first counts), in id order, so two processes' writes take their rows in one order.
    const first = new Map<number, { nodeId: number; ack: DeviceAck }>();
    for (const a of batch) if (!first.has(a.ack.id)) first.set(a.ack.id, a);
    const groups = new Map<string, { result: DeviceAck['result']; reason: string | null; answers: { id: number; nodeId: number }[] }>();
    for (const [id, a] of [...first].sort((x, y) => x[0] - y[0])) {
      const reason = a.ack.reason ?? null;
      const key = JSON.stringify([a.ack.result, reason]);
      const g = groups.get(key) ?? { result: a.ack.result, reason, answers: [] };
      g.answers.push({ id, nodeId: a.nodeId });
      groups.set(key, g);
    }
    await this.db.transaction().execute(async (trx) => {
      // A device answers only its own commands: whose each one is, by its key (a command's node never
      // changes). One condition per answer (id and node) cost SQLite 60 ms a 1,000 to plan and run.
      const owner = await repo.commandOwners(trx, [...first.keys()]);
      const declined: number[] = [];
      for (const g of groups.values()) {
        const own = g.answers.filter((a) => owner.get(a.id) === a.nodeId).map((a) => a.id);
        const answered = await repo.answerCommands(trx, own, { status: g.result, reason: g.reason, at });
        // A declined instruction to the battery sets nothing aside: the node returns to what it had set aside.
        if (g.result !== 'ACCEPTED') for (const r of answered) if (DIRECTING.has(r.kind)) declined.push(r.node_id);
      }
      await reviseNodes(trx, declined, at);
    });
  }
}
