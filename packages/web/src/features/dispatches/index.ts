// The dispatches area as other areas see it.

// What the other event kinds (RERT, grid outages) reuse: the detail page's parts, the modal's views and rules.
export { DISPATCH_SOURCE, type EventSource } from './api.ts';
export { type EventDetailConfig, EventDetailView } from './dispatch-detail-page.tsx';
export { DispatchFlowModal, NO_PRICES, nowS, useDispatchFlow } from './dispatch-flow.tsx';
export { type EventListConfig, EventListView } from './dispatch-list-page.tsx';
export { useDispatchConstraints, useDispatchPredictions } from './new-dispatch-api.ts';
export { NewDispatchConfirmView } from './new-dispatch-confirm-view.tsx';
export { NewDispatchEditView } from './new-dispatch-edit-view.tsx';
export {
  createBody,
  type DispatchDraft,
  type DraftPermissions,
  graphStart,
  initialDraft,
  messageApplies,
  prefilledMessage,
  withPower,
  withPowerstation,
} from './new-dispatch-form.ts';
export { NewDispatchMessageView } from './new-dispatch-message-view.tsx';
export { NewDispatchModal } from './new-dispatch-modal.tsx';
export { dispatchesRoutes } from './routes.tsx';
