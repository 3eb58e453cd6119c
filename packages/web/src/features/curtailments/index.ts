// The curtailments area as other areas see it: the VPP detail's Default Setpoints tab and 'Add New' menu.

export { useVppSetpoints } from './api.ts';
export { curtailmentPath, FEED_IN_PATH } from './curtailment-form.ts';
export { SetpointTable } from './curtailment-tables.tsx';
export { NewCurtailmentModal } from './new-curtailment-modal.tsx';
export { NewSetpointModal } from './new-setpoint-modal.tsx';
export { curtailmentsRoutes } from './routes.tsx';
