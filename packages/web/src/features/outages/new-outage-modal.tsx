import { Button, Group, Modal, Select, SimpleGrid, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { OUTAGE_REASON_LABELS, OUTAGE_REASONS, type OutageReason } from '@vpp/shared/outages/messages';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAccount, useTimeZone } from '../../lib/account.ts';
import {
  CustomerMessageSummary,
  EventMessageView,
  EventWindowFields,
  earliestStart,
  nowS,
  PowerstationSelect,
  useDispatchPowerstations,
} from '../events/index.ts';
import { useCreateOutage } from './api.ts';
import { createOutageBody, initialOutageDraft, messageOf, type OutageDraft, withEnd, withStartDate } from './new-outage-form.ts';
import { outagePath } from './outage-format.ts';

/**
 * The New Grid Outage modal (spec 3 §2.6): VPP, start date and time, end time, reason and an
 * optional customer app message (its own sub-view). Execute creates it, toasts, and opens its detail.
 */
export function NewOutageModal(props: { opened: boolean; onClose: () => void }) {
  const { opened, onClose } = props;
  const zone = useTimeZone();
  const organisation = useAccount().data?.suborg_name ?? '';
  const navigate = useNavigate();
  const fullScreen = useMediaQuery('(max-width: 48em)');
  const [draft, setDraft] = useState<OutageDraft>(() => initialOutageDraft(nowS(), zone));
  const [editing, setEditing] = useState(false);
  const powerstations = useDispatchPowerstations(opened);
  const create = useCreateOutage();

  useEffect(() => {
    if (!opened) return;
    setEditing(false);
    setDraft(initialOutageDraft(nowS(), zone));
  }, [opened, zone]);

  const message = messageOf(draft, organisation);

  const earliest = earliestStart(nowS());

  const execute = () =>
    create.mutateAsync(createOutageBody(draft)).then(
      (res) => {
        onClose();
        navigate(outagePath(res.data.id));
      },
      () => undefined,
    );

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? 'Customer App Message' : 'New Grid Outage'} size="xl" fullScreen={fullScreen}>
      {editing ? (
        <EventMessageView
          message={message}
          zone={zone}
          onCancel={() => setEditing(false)}
          onSave={(m) => {
            setDraft((d) => ({ ...d, message: m }));
            setEditing(false);
          }}
        />
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <PowerstationSelect
              powerstations={{ data: powerstations.data, loading: powerstations.isLoading }}
              value={draft.powerstation}
              onChange={(id) => setDraft((d) => ({ ...d, powerstation: id }))}
            />
            <Select
              label="Reason"
              data={OUTAGE_REASONS.map((r) => ({ value: r, label: OUTAGE_REASON_LABELS[r] }))}
              value={draft.reason}
              allowDeselect={false}
              onChange={(v) => v && setDraft((d) => ({ ...d, reason: v as OutageReason }))}
              comboboxProps={{ withinPortal: true }}
            />
            <EventWindowFields
              startTime={draft.startTime}
              duration={draft.duration}
              zone={zone}
              nowS={nowS()}
              onStartDate={(date) => setDraft((d) => withStartDate(d, date, zone, nowS()))}
              onStartTime={(t) => setDraft((d) => ({ ...d, startTime: Math.max(t, earliestStart(nowS())) }))}
              onEnd={(t) => setDraft((d) => withEnd(d, t))}
            />
          </SimpleGrid>
          <CustomerMessageSummary
            label="Customer app message"
            heading="Customer app message (optional)"
            lines={message}
            editLabel="Edit Message"
            onEdit={() => setEditing(true)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={execute} disabled={draft.powerstation === null || draft.startTime < earliest} loading={create.isPending}>
              Execute
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
