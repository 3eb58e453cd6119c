// The event kernel on the web: what every kind of event's screens share (dispatches, RERT, grid
// outages, curtailments): the words and formats of an event, its status badge, its table, its graphs'
// window and frame, its detail page's parts, its window's fields and rules, the VPPs it can go to, the
// customer message's editor, summary and phone preview; and what the kinds of dispatch event (a
// dispatch, a RERT dispatch) share, parameterised by kind: the list and detail views over a kind's
// calls (EventSource), and the dispatch modal's flow, views and draft rules.

export { useDispatchPowerstations } from './event-api.ts';
export { EventChartFrame } from './event-chart.tsx';
export { EventConfirmView } from './event-confirm-view.tsx';
export {
  CustomerMessageSection,
  EventDetailFrame,
  type EventFrame,
  Figure,
  NodesProgress,
  Section,
  WindowFigures,
} from './event-detail-parts.tsx';
export { type EventDetailConfig, EventDetailView } from './event-detail-view.tsx';
export {
  createBody,
  type DispatchDraft,
  type DraftPermissions,
  initialDraft,
  messageApplies,
  withPower,
} from './event-draft.ts';
export { DispatchFlowModal, type DispatchFlowView, NO_PRICES, nowS, useDispatchFlow } from './event-flow.tsx';
export {
  COST_TYPE_LABELS,
  DISPATCH_LIST_PATH,
  DISPATCH_SCREEN_TEXTS,
  detailRefreshMs,
  dispatchPath,
  dispatchStatusLabel,
  eventLabel,
  formatAud,
  formatDispatchStart,
  formatPrice,
  GRAPH_TICK_S,
  GRAPH_Y_PAD,
  graphScale,
  localiseStamps,
  MEASUREMENT_TEXTS,
  percentNotIncluded,
  QUOTE_TEXTS,
  REFRESH_DEBOUNCE_MS,
  REFRESH_FAST_MS,
  REFRESH_IN_PROGRESS_MS,
  REFRESH_SLOW_MS,
  repeatsLocally,
  requestKind,
} from './event-format.ts';
export { graphWindow, scaledSeries } from './event-graphs.tsx';
export {
  type EventListConfig,
  EventListView,
  type EventPage,
  type EventRowFormat,
  EventTable,
  eventColumns,
  listQuery,
} from './event-list-view.tsx';
export { CustomerMessageSummary, EventMessageView } from './event-message-view.tsx';
export type { EventSource } from './event-source.ts';
export { DispatchStatusBadge } from './event-status-badge.tsx';
export { clampStart, earliestStart, endTimesAfter, startTimesOfDay } from './event-window.ts';
export { EventChoice, EventWindowFields, PowerstationSelect } from './event-window-fields.tsx';
export { type CustomerMessage, PhonePreview } from './phone-preview.tsx';
