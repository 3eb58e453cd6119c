import { OUTAGE_MESSAGES } from '@vpp/shared/outages/messages';
import { OUTAGE_EDIT, OUTAGE_VIEW } from '@vpp/shared/outages/permissions';
import type { GridOutage } from '@vpp/shared/outages/schemas';
import { type EventListConfig, EventListView } from '../events/index.ts';
import { useOutagePage } from './api.ts';
import { NewOutageModal } from './new-outage-modal.tsx';
import { outagePath } from './outage-format.ts';

const OUTAGE_LIST: EventListConfig<GridOutage> = {
  title: 'Grid Outages',
  viewPermission: OUTAGE_VIEW,
  editPermission: OUTAGE_EDIT,
  newLabel: 'New Grid Outage',
  useList: useOutagePage,
  format: { label: (o) => o.reason || OUTAGE_MESSAGES.unknownTitle, vpp: (o) => o.powerstation?.name ?? '–' },
  // The route names no paging (spec 3 §2.6): the page holds it.
  paging: 'page',
  path: outagePath,
  empty: OUTAGE_MESSAGES.empty,
  newModal: (props) => <NewOutageModal {...props} />,
};

/** Grid outage list (/virtual-power-plants/grid-outages, spec 3 §2.6): latest start first, reloaded every 5 minutes. */
export function OutageListPage() {
  return <EventListView config={OUTAGE_LIST} />;
}
