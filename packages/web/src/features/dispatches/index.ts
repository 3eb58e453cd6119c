// The dispatches area as other areas see it.

// What the other event kinds (RERT, grid outages) reuse: the detail page's parts, the modal's views and rules.
export { DISPATCH_SOURCE, type EventSource } from './api.ts';
export { type EventDetailConfig, EventDetailView, Figure, Section } from './dispatch-detail-page.tsx';
export { DispatchFlowModal, NO_PRICES, nowS, REFRESH_DEBOUNCE_MS, useDispatchFlow } from './dispatch-flow.tsx';
export { eventLabel, formatDispatchStart, GRAPH_TICK_S, GRAPH_Y_PAD, graphScale, REFRESH_FAST_MS, REFRESH_SLOW_MS, requestKind } from './dispatch-format.ts';
export { type EventListConfig, EventListView } from './dispatch-list-page.tsx';
export { DispatchStatusBadge } from './dispatch-status-badge.tsx';
export { EventWindowFields, PowerstationSelect } from './event-window-fields.tsx';
export { useDispatchConstraints, useDispatchPowerstations, useDispatchPredictions } from './new-dispatch-api.ts';
export { NewDispatchConfirmView } from './new-dispatch-confirm-view.tsx';
export { NewDispatchEditView } from './new-dispatch-edit-view.tsx';
export {
  clampStart,
  createBody,
  type DispatchDraft,
  type DraftPermissions,
  earliestStart,
  endTimesAfter,
  graphStart,
  initialDraft,
  messageApplies,
  prefilledMessage,
  startTimesOfDay,
  withPower,
  withPowerstation,
} from './new-dispatch-form.ts';
export { NewDispatchMessageView, PhonePreview } from './new-dispatch-message-view.tsx';
export { NewDispatchModal } from './new-dispatch-modal.tsx';
export { dispatchesRoutes } from './routes.tsx';
