import { Button, Group, Modal, Text } from '@mantine/core';
import { IconCalendarTime, IconX } from '@tabler/icons-react';
import { type DispatchDetail, RERT_EDIT, RERT_MESSAGES, RERT_VIEW } from '@vpp/shared';
import { useState } from 'react';
import { useParams } from 'react-router';
import { usePermission } from '../../lib/permission-gate.tsx';
import { type EventDetailConfig, EventDetailView } from '../dispatches/index.ts';
import { RERT_SOURCE, useCancelRert } from './api.ts';
import { RertDispatchModal } from './rert-dispatch-modal.tsx';
import { RERT_LIST_PATH, RERT_TEXTS } from './rert-format.ts';

/** Cancel asks first (spec 3 §2.5); a refusal (it started meanwhile) closes the question with its toast. */
function CancelRert({ id }: { id: number }) {
  const [opened, setOpened] = useState(false);
  const cancel = useCancelRert();
  return (
    <>
      <Button color="red" variant="light" leftSection={<IconX size={16} />} onClick={() => setOpened(true)}>
        Cancel
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Cancel RERT Dispatch">
        <Text>{RERT_MESSAGES.cancelConfirm}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setOpened(false)}>
            Back
          </Button>
          <Button
            color="red"
            loading={cancel.isPending}
            onClick={() =>
              cancel
                .mutateAsync(id)
                .catch(() => undefined)
                .finally(() => setOpened(false))
            }
          >
            Cancel Dispatch
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** Reschedule and Cancel, only while the RERT dispatch is UPCOMING (not cancelled) and the user may edit (spec 3 §2.5, §4). */
function RertActions({ d }: { d: DispatchDetail }) {
  const canEdit = usePermission(RERT_EDIT);
  const [moving, setMoving] = useState(false);
  if (!canEdit || d.state !== 'UPCOMING' || d.cancelledAt !== null) return null;
  return (
    <Group gap="sm">
      <Button variant="light" leftSection={<IconCalendarTime size={16} />} onClick={() => setMoving(true)}>
        Reschedule
      </Button>
      <CancelRert id={d.id} />
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
