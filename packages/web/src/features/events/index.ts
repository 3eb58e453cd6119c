// The event kernel on the web: what every kind of event's screens share (dispatches, RERT, grid
// outages, curtailments): the words and formats of an event, its status badge, its detail page's parts,
// its window's fields and rules, the VPPs it can go to, and the customer's phone preview.

export { useDispatchPowerstations } from './event-api.ts';
export { Figure, Section } from './event-detail-parts.tsx';
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
export { DispatchStatusBadge } from './event-status-badge.tsx';
export { clampStart, earliestStart, endTimesAfter, startTimesOfDay } from './event-window.ts';
export { EventWindowFields, PowerstationSelect } from './event-window-fields.tsx';
export { type CustomerMessage, PhonePreview } from './phone-preview.tsx';
