import { exportEndpoints } from '@vpp/shared/exports/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { exportsRoutes } from './exports.routes.ts';
import { EXPORT_SWEEP_RECURRING, exportJob, exportSweepJob } from './exports.service.ts';
import './exports.settings.ts';
import './exports.tables.ts';

export { seedDemoExports } from './exports.seed.ts';
export { runExport, sweepExports } from './exports.service.ts';

/** Data exports (issue 17): operational and customer CSVs as durable jobs, downloaded through signed URLs. */
export const exportsModule: FeatureModule = {
  name: 'exports',
  endpoints: [exportEndpoints],
  routes: exportsRoutes,
  jobs: [exportJob, exportSweepJob],
  recurring: [EXPORT_SWEEP_RECURRING],
};
