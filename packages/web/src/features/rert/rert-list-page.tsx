import { RERT_EDIT, RERT_VIEW } from '@vpp/shared/rert/permissions';
import { type EventListConfig, EventListView, listQuery } from '../events/index.ts';
import { useRertDispatches } from './api.ts';
import { RertDispatchModal } from './rert-dispatch-modal.tsx';
import { RERT_TEXTS, rertPath } from './rert-format.ts';

const RERT_LIST: EventListConfig = {
  title: 'RERT Dispatches',
  viewPermission: RERT_VIEW,
  editPermission: RERT_EDIT,
  newLabel: 'New RERT Dispatch',
  useList: (q) => listQuery(useRertDispatches(q), (r) => ({ rows: r.data.dispatches, total: r.data.total })),
  path: rertPath,
  empty: RERT_TEXTS.noDispatches,
  numbered: true,
  newModal: (props) => <RertDispatchModal {...props} />,
};

/** RERT list (/virtual-power-plants/rert-dispatches?limit&offset, spec 3 §2.5): latest start first, refreshed every 5 minutes. */
export function RertListPage() {
  return <EventListView config={RERT_LIST} />;
}
