// The curtailments area as other areas see it: the VPP detail's Default Setpoints tab and the 'Add New'
// menu's New Curtailment modal (both loaded when first shown: import this module dynamically).

export { FEED_IN_PATH } from './curtailment-form.ts';
export { NewCurtailmentModal } from './new-curtailment-modal.tsx';
export { curtailmentsRoutes } from './routes.tsx';
export { VppSetpointsTab } from './vpp-setpoints-tab.tsx';
