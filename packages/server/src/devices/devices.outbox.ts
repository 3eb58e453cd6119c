import { type DeviceAck, type DeviceCommand, type DeviceControl, deviceTopics } from '@vpp/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, nowS } from '../db/database.ts';
import type { CommandSpec } from '../fleet/control.ts';

/** A command not acknowledged this long after it was sent goes out again (QoS 1 covers the wire; this covers a device that restarted before answering). */
export const RESEND_S = 30;
/** Commands claimed per round. */
const CLAIM = 2000;

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
    case 'charge_full':
      return { type: 'chargeToFull' };
    case 'grid_outage':
      return { type: 'outageReserve' };
  }
}

/**
 * The durable command outbox (node_commands) on the wire: each round claims the pending commands
 * still valid of online devices that hold a credential and were never sent or not answered within
 * RESEND_S, marks them sent in the same statement (so two console processes never both send one),
 * and publishes them. A device that returns gets its pending commands at once; an answer records
 * the device's result, which the dispatch, curtailment and outage figures read.
 */
export class CommandOutbox {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  readonly counts = { sent: 0, acks: 0 };

  constructor(
    private readonly db: Database,
    private readonly publish: (topic: string, payload: string) => Promise<void>,
    private readonly log: FastifyBaseLogger,
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
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One round (also called when a device comes online, so it need not wait for the next). */
  round(): Promise<void> {
    this.running ??= this.send().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** A device is back: its commands not yet answered go out in the next round, not after RESEND_S. */
  async online(nodeId: number): Promise<void> {
    await this.db.updateTable('node_commands').set({ sent_at: null }).where('node_id', '=', nodeId).where('status', '=', 'PENDING').execute();
    void this.round().catch((err) => this.log.error({ err }, 'command outbox round failed'));
  }

  private async send(): Promise<void> {
    for (;;) {
      const now = nowS();
      const due = this.db
        .selectFrom('node_commands as c')
        .innerJoin('device_credentials as d', 'd.node_id', 'c.node_id')
        .innerJoin('nodes as n', 'n.id', 'c.node_id')
        .select('c.id')
        .where('c.status', '=', 'PENDING')
        .where('c.end_ts', '>', now)
        .where('n.connection_offline', '=', 0)
        .where((eb) => eb.or([eb('c.sent_at', 'is', null), eb('c.sent_at', '<=', now - RESEND_S)]))
        .orderBy('c.id')
        .limit(CLAIM);
      // The claim re-checks what it selected: of two processes claiming the same rows, one updates none.
      const claimed = await this.db
        .updateTable('node_commands')
        .set({ sent_at: now })
        .where('id', 'in', due)
        .where('status', '=', 'PENDING')
        .where((eb) => eb.or([eb('sent_at', 'is', null), eb('sent_at', '<=', now - RESEND_S)]))
        .returning(['id', 'node_id', 'params', 'start_ts', 'end_ts', 'created_at'])
        .execute();
      if (!claimed.length) return;
      const serials = new Map(
        (
          await this.db
            .selectFrom('nodes')
            .select(['id', 'serial_number'])
            .where('id', 'in', [...new Set(claimed.map((c) => c.node_id))])
            .execute()
        ).map((n) => [n.id, n.serial_number]),
      );
      await Promise.all(
        claimed.map((c) => {
          const cmd: DeviceCommand = {
            id: c.id,
            createdAt: Number(c.created_at),
            validFrom: Number(c.start_ts),
            validTo: Number(c.end_ts),
            control: toControl(JSON.parse(c.params) as CommandSpec),
          };
          this.counts.sent++;
          return this.publish(deviceTopics(serials.get(c.node_id) as string).cmd, JSON.stringify(cmd));
        }),
      );
      if (claimed.length < CLAIM) return;
    }
  }

  /** A device's answer to one of its own commands; an answer to a command no longer pending (withdrawn, answered before) changes nothing. */
  async ack(nodeId: number, ack: DeviceAck): Promise<void> {
    this.counts.acks++;
    await this.db
      .updateTable('node_commands')
      .set({ status: ack.result, responded_at: nowS(), reason: ack.reason ?? null })
      .where('id', '=', ack.id)
      .where('node_id', '=', nodeId)
      .where('status', '=', 'PENDING')
      .execute();
  }
}
