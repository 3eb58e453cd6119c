import { DISPATCH_EDIT, DISPATCH_VIEW } from '@vpp/shared/dispatches/permissions';
import { DISPATCH_SCREEN_TEXTS, dispatchPath, type EventListConfig, EventListView, listQuery } from '../events/index.ts';
import { useDispatches } from './api.ts';
import { NewDispatchModal } from './new-dispatch-modal.tsx';

const DISPATCH_LIST: EventListConfig = {
  title: 'Dispatches',
  viewPermission: DISPATCH_VIEW,
  editPermission: DISPATCH_EDIT,
  newLabel: 'New Dispatch',
  useList: (q) => listQuery(useDispatches(q), (r) => ({ rows: r.data.dispatches, total: r.data.total })),
  path: dispatchPath,
  empty: DISPATCH_SCREEN_TEXTS.noDispatches,
  newModal: (props) => <NewDispatchModal {...props} />,
};

/** Dispatch list (/virtual-power-plants/dispatches?limit&offset, spec 3 §2.2). */
export function DispatchListPage() {
  return <EventListView config={DISPATCH_LIST} />;
}
