import { DISPATCH_EDIT, DISPATCH_VIEW } from '@vpp/shared/dispatches/permissions';
import type { DispatchDetail } from '@vpp/shared/dispatches/schemas';
import { useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { DISPATCH_LIST_PATH, DISPATCH_SCREEN_TEXTS, type EventDetailConfig, EventDetailView } from '../events/index.ts';
import { DISPATCH_SOURCE, useCancelDispatch } from './api.ts';

function DispatchActions({ d, nowS }: { d: DispatchDetail; nowS: number }) {
  const canEdit = usePermission(DISPATCH_EDIT);
  const open = d.cancelledAt === null && nowS < d.request.startTime + d.request.duration;
  const cancel = useCancelDispatch();
  const navigate = useNavigate();
  if (!canEdit || !open) return null;
  return (
    <ConfirmButton
      label="Cancel Dispatch"
      title="Cancel Dispatch"
      question={DISPATCH_SCREEN_TEXTS.cancelConfirm}
      confirmLabel="Cancel Dispatch"
      // The refreshed dispatch, now cancelled, unmounts this button before mutate's own callbacks would run.
      onConfirm={() => cancel.mutateAsync(d.id).then(() => navigate(DISPATCH_LIST_PATH))}
    />
  );
}

const DISPATCH_DETAIL: EventDetailConfig = {
  source: DISPATCH_SOURCE,
  noun: 'Dispatch',
  listLabel: 'Dispatches',
  listPath: DISPATCH_LIST_PATH,
  permission: DISPATCH_VIEW,
  notFound: DISPATCH_SCREEN_TEXTS.notFound,
  backToList: DISPATCH_SCREEN_TEXTS.backToList,
  actions: (d, nowS) => <DispatchActions d={d} nowS={nowS} />,
};

/** Dispatch detail (/virtual-power-plants/dispatches/{id}, spec 3 §2.4). */
export function DispatchDetailPage() {
  return <EventDetailView id={Number(useParams().id)} config={DISPATCH_DETAIL} />;
}
