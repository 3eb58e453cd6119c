import { Alert, Button, Group, Modal, SimpleGrid, Stack } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { CURTAILMENT_POWER_STEP_KW, CURTAILMENT_MESSAGES as M } from '@vpp/shared/curtailments/messages';
import type { CurtailmentConstraint } from '@vpp/shared/curtailments/schemas';
import { formatDateTime, formatDuration } from '@vpp/shared/format';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { PowerControl } from '../../components/power-control.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { EventChoice, EventConfirmView, EventWindowFields, nowS, PowerstationSelect, REFRESH_DEBOUNCE_MS, useDispatchPowerstations } from '../events/index.ts';
import { useCreateCurtailment, useCurtailmentConstraint, useNewCurtailmentPrediction } from './api.ts';
import { CurtailmentChart } from './curtailment-chart.tsx';
import {
  type CurtailmentDraft,
  confirmBlocker,
  createCurtailmentBody,
  curtailmentPath,
  initialCurtailment,
  limitLabel,
  powerBounds,
  unavailableReason,
  withEnd,
  withLimit,
  withPowerstation,
  withStartDate,
  withStartTime,
} from './curtailment-form.ts';

/** How far ahead a curtailment can be drawn up: the server predicts at most 7 days ahead. */
const MAX_DAYS_AHEAD = 7;

/**
 * The New Curtailment modal (spec 3 §2.7, §4.3, §5): the VPP, the window, Net or Gross, the limit
 * bounded by the VPP's constraint and the prediction graph; then a confirmation. Execute toasts and
 * opens the new curtailment's detail; a refusal toasts and stays.
 */
export function NewCurtailmentModal(props: { opened: boolean; onClose: () => void; powerstationId?: number }) {
  const { opened, onClose, powerstationId } = props;
  const zone = useTimeZone();
  const navigate = useNavigate();
  const fullScreen = useMediaQuery('(max-width: 48em)');
  const [view, setView] = useState<'edit' | 'confirm'>('edit');
  const [draft, setDraft] = useState<CurtailmentDraft>(() => initialCurtailment(nowS(), zone, powerstationId ?? null));

  useEffect(() => {
    if (!opened) return;
    setView('edit');
    setDraft(initialCurtailment(nowS(), zone, powerstationId ?? null));
  }, [opened, zone, powerstationId]);

  const powerstations = useDispatchPowerstations(opened);
  const constraint = useCurtailmentConstraint(opened ? draft.powerstation : null);
  const c = draft.powerstation === null ? undefined : constraint.data;
  // The window the prediction is asked for follows the draft 300 ms behind (spec 3 §9).
  const asked = useMemo(
    () => (opened && draft.powerstation !== null ? { powerstation: draft.powerstation, startTime: draft.startTime, duration: draft.duration } : null),
    [opened, draft.powerstation, draft.startTime, draft.duration],
  );
  const [debounced] = useDebouncedValue(asked, REFRESH_DEBOUNCE_MS);
  const prediction = useNewCurtailmentPrediction(debounced?.powerstation === asked?.powerstation ? debounced : asked);
  const create = useCreateCurtailment();

  const vppCount = powerstations.data?.length;
  const unavailable = unavailableReason(vppCount, c);
  const blocker = confirmBlocker(draft, c, vppCount, nowS());
  const vppName = powerstations.data?.find((v) => v.id === draft.powerstation)?.name ?? '';

  const execute = () =>
    create.mutateAsync(createCurtailmentBody(draft)).then(
      ({ id }) => {
        onClose();
        navigate(curtailmentPath(id));
      },
      () => undefined,
    );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={view === 'edit' ? M.newCurtailment : 'Confirm Curtailment'}
      size={1000}
      fullScreen={fullScreen}
      closeOnClickOutside={false}
    >
      {view === 'edit' ? (
        <Stack gap="md">
          {unavailable && <Alert color="yellow">{unavailable}</Alert>}
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
            <PowerstationSelect
              powerstations={{ data: powerstations.data, loading: powerstations.isLoading }}
              value={draft.powerstation}
              onChange={(id) => setDraft((d) => withPowerstation(d, id))}
            />
            <EventWindowFields
              startTime={draft.startTime}
              duration={draft.duration}
              zone={zone}
              nowS={nowS()}
              maxDaysAhead={MAX_DAYS_AHEAD}
              onStartDate={(date) => setDraft((d) => withStartDate(d, date, zone, nowS()))}
              onStartTime={(t) => setDraft((d) => withStartTime(d, t, zone, nowS()))}
              onEnd={(t) => setDraft((d) => withEnd(d, t))}
            />
          </SimpleGrid>
          <LimitFields draft={draft} setDraft={setDraft} constraint={c} disabled={!c || !!unavailable} />
          {draft.powerstation !== null && (
            <CurtailmentChart
              label="Curtailment prediction"
              data={{ predicted: prediction.data }}
              warning={prediction.data?.warning}
              loading={prediction.isFetching}
              zone={zone}
              component={draft.component}
              realPowerP={draft.realPowerP}
              startTime={draft.startTime}
              duration={draft.duration}
              step={prediction.data?.interval ?? 300}
              height={230}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => setView('confirm')} disabled={blocker !== null} title={blocker ?? undefined}>
              Confirm
            </Button>
          </Group>
        </Stack>
      ) : (
        <ConfirmView draft={draft} vppName={vppName} zone={zone} pending={create.isPending} onBack={() => setView('edit')} onExecute={execute} />
      )}
    </Modal>
  );
}

/** Net or Gross, and the limit: bounded by the VPP's constraint (spec 3 §5: maximum 0, step 0.1, minimum the constraint). */
function LimitFields(props: {
  draft: CurtailmentDraft;
  setDraft: (update: (d: CurtailmentDraft) => CurtailmentDraft) => void;
  constraint: CurtailmentConstraint | undefined;
  disabled: boolean;
}) {
  const { draft, setDraft, constraint: c } = props;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <EventChoice
        label="Component"
        value={draft.component}
        onChange={(v) => setDraft((d) => ({ ...d, component: v }))}
        data={[
          { value: 'grid', label: 'Net' },
          { value: 'solar', label: 'Gross' },
        ]}
        hint={draft.component === 'solar' ? 'Gross limits the solar generation of the nodes.' : 'Net limits the export at the nodes’ meters.'}
      />
      <PowerControl
        label="Real power (kW)"
        inputLabel="Real power"
        value={draft.realPowerP}
        {...powerBounds(c)}
        step={CURTAILMENT_POWER_STEP_KW}
        disabled={props.disabled}
        onSlide={(kw) => setDraft((d) => withLimit(d, kw, c))}
        onType={(kw) => setDraft((d) => withLimit(d, kw, c))}
        hint={
          draft.component === 'solar'
            ? `The VPP's solar generation is held to at most ${Math.abs(draft.realPowerP).toFixed(1)} kW.`
            : `The VPP's export at the meters is held to at most ${Math.abs(draft.realPowerP).toFixed(1)} kW.`
        }
      />
    </SimpleGrid>
  );
}

/** The confirmation (spec 3 §2.7): the curtailment as it will be sent, the question, Back and Execute. */
function ConfirmView(props: { draft: CurtailmentDraft; vppName: string; zone: string; pending: boolean; onBack: () => void; onExecute: () => void }) {
  const { draft, zone } = props;
  const rows = [
    ['Virtual Power Plant', props.vppName],
    ['Start', formatDateTime(draft.startTime, zone)],
    ['End', formatDateTime(draft.startTime + draft.duration, zone)],
    ['Duration', formatDuration(draft.duration)],
    ['Limit', limitLabel(draft)],
  ] as const;
  return (
    <EventConfirmView
      label="Curtailment summary"
      rows={rows}
      question={M.confirm}
      executing={props.pending}
      onBack={props.onBack}
      onExecute={props.onExecute}
    />
  );
}
