import type { FeatureModule } from '../platform/module.ts';
import { TELEMETRY_COMPACT_RECURRING, telemetryCompactJob } from './compact.job.ts';

export { decodeDay } from './compact.ts';
export {
  ENERGY_COLUMNS,
  type EnergyColumn,
  FLEET_COLUMNS,
  FLEET_METRIC_TO_COLUMN,
  type FleetColumn,
  METRIC_COLUMNS,
  METRIC_TO_COLUMN,
  type MetricColumn,
  metricValues,
  type Sample,
} from './metrics.ts';
export { DayCache, nodeSeries } from './read.ts';
export type { SubmeterSample } from './rows.ts';
export { TelemetryStore } from './store.ts';

/** The telemetry store's upkeep: it compacts the ended days of the nodes' history every hour. */
export const telemetryModule: FeatureModule = {
  name: 'telemetry',
  jobs: [telemetryCompactJob],
  recurring: [TELEMETRY_COMPACT_RECURRING],
};
