import type { Database } from '../db/database.ts';

/**
 * What the fleet tells the console besides its readings (those go through the telemetry store):
 * units that stop reporting or report again, as an MQTT broker's last-will and birth messages
 * would, and where each unit stands after a report. The console decides what follows (node
 * events, status, notifications); the simulator, or later the broker bridge, only reports.
 */
export interface ConnectivityChange {
  nodeId: number;
  ts: number;
  online: boolean;
  /** For a unit reporting again, when it stopped (null when unknown). */
  offlineFrom: number | null;
}

export interface UnitContact {
  nodeId: number;
  /** The unit's last report, when it changed since the last account of it. */
  lastContact?: number;
  /** Whether it reports now; absent when there is no news. */
  online?: boolean;
}

/**
 * The console's side of the reports. `db`, when given, is the transaction that stores the readings
 * of the same report: what the console records of it then commits with them, or not at all.
 */
export interface FleetReports {
  /** Units that joined the fleet (provisioned; here, built by the simulator). */
  joined(nodeIds: readonly number[]): Promise<void>;
  connectivity(changes: readonly ConnectivityChange[], db?: Database): Promise<void>;
  contacts(units: readonly UnitContact[], db?: Database): Promise<void>;
}
