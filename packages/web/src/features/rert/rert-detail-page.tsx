import { Button, Group } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import type { DispatchDetail } from '@vpp/shared/dispatches/schemas';
import { RERT_MESSAGES } from '@vpp/shared/rert/messages';
import { RERT_EDIT, RERT_VIEW } from '@vpp/shared/rert/permissions';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { type EventDetailConfig, EventDetailView } from '../events/index.ts';
import { RERT_SOURCE, useCancelRert } from './api.ts';
import { RertDispatchModal } from './rert-dispatch-modal.tsx';
import { RERT_LIST_PATH, RERT_TEXTS } from './rert-format.ts';

/** Reschedule and Cancel, only while the RERT dispatch is UPCOMING (not cancelled) and the user may edit (spec 3 §2.5, §4). */
function RertActions({ d }: { d: DispatchDetail }) {
  const canEdit = usePermission(RERT_EDIT);
  const [moving, setMoving] = useState(false);
  const cancel = useCancelRert();
  const navigate = useNavigate();
  if (!canEdit || d.state !== 'UPCOMING' || d.cancelledAt !== null) return null;
  return (
    <Group gap="sm">
      <Button variant="light" leftSection={<IconCalendarTime size={16} />} onClick={() => setMoving(true)}>
        Reschedule
      </Button>
      <ConfirmButton
        label="Cancel"
        title="Cancel RERT Dispatch"
        question={RERT_MESSAGES.cancelConfirm}
        confirmLabel="Cancel Dispatch"
        // After a cancel the list (spec 3 §1), as for the other kinds of event.
        onConfirm={() => cancel.mutateAsync(d.id).then(() => navigate(RERT_LIST_PATH))}
      />
      <RertDispatchModal opened={moving} onClose={() => setMoving(false)} reschedule={d} />
    </Group>
  );
}

const RERT_DETAIL: EventDetailConfig = {
  source: RERT_SOURCE,
  noun: 'RERT Dispatch',
  listLabel: 'RERT Dispatches',
  listPath: RERT_LIST_PATH,
  permission: RERT_VIEW,
  notFound: RERT_TEXTS.notFound,
  backToList: RERT_TEXTS.backToList,
  actions: (d) => <RertActions d={d} />,
};

/** RERT detail (/virtual-power-plants/rert-dispatches/{id}, spec 3 §2.5): a dispatch's detail with Reschedule and Cancel. */
export function RertDetailPage() {
  return <EventDetailView id={Number(useParams().id)} config={RERT_DETAIL} />;
}
