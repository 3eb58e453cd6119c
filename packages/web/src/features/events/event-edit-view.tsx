import { Alert, Button, Group, SegmentedControl, SimpleGrid, Slider, Stack, Text } from '@mantine/core';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { DISPATCH_POWER_STEP_KW, type LeadLag, POWER_FACTOR_MAX, POWER_FACTOR_MIN, POWER_FACTOR_STEP, snapSlider } from '@vpp/shared/dispatches/rules';
import type { DispatchConstraints, DispatchPredictions } from '@vpp/shared/dispatches/schemas';
import type { DispatchPriceReply } from '@vpp/shared/market/schemas';
import { useCallback } from 'react';
import { PowerControl } from '../../components/power-control.tsx';
import { NewDispatchChart } from './event-chart.tsx';
import {
  brushSelection,
  confirmBlocker,
  type DispatchDraft,
  type DraftPermissions,
  graphStart,
  leadLagEditable,
  messageApplies,
  powerFactorEditable,
  strategyShown,
  withEnd,
  withPower,
  withPowerFactor,
  withStartDate,
  withStartTime,
} from './event-draft.ts';
import { CustomerMessageSummary } from './event-message-view.tsx';
import { NewDispatchPrices } from './event-prices.tsx';
import { EventChoice, EventWindowFields, PowerstationSelect } from './event-window-fields.tsx';

/** How far ahead a dispatch can be drawn up: the server predicts at most 7 days ahead. */
const MAX_DAYS_AHEAD = 7;

export interface EditViewProps {
  draft: DispatchDraft;
  update: (f: (d: DispatchDraft) => DispatchDraft) => void;
  can: DraftPermissions;
  zone: string;
  nowS: number;
  powerstations: { data: { id: number; name: string }[] | undefined; loading: boolean };
  onPowerstation: (id: number | null) => void;
  constraints: DispatchConstraints | undefined;
  predictions: { data: DispatchPredictions | undefined; loading: boolean };
  prices: { show: boolean; data: DispatchPriceReply | undefined; failed: boolean; loading: boolean };
  onEditMessage: () => void;
  onCancel: () => void;
  onConfirm: () => void;
  /** A reschedule (RERT): the VPP, power and strategy stay as they were; only the window and message change. */
  locked?: boolean;
  /** What the power's sign means, under the slider. */
  powerHint?: string;
  /** Another kind's own fields (a RERT dispatch's instruction and contract), before the customer message. */
  extra?: React.ReactNode;
  /** Why Confirm is disabled for those fields (null when they are complete). */
  extraBlocker?: string | null;
}

/** The power factor slider and lead/lag choice, for users with fleet.dispatches.powerFactor. */
function PowerFactorControl({ draft, update, c }: { draft: DispatchDraft; update: EditViewProps['update']; c: DispatchConstraints | undefined }) {
  const editable = powerFactorEditable(draft, c);
  const pfMin = c?.powerFactorMin ?? POWER_FACTOR_MIN;
  const pfMax = c?.powerFactorMax ?? POWER_FACTOR_MAX;
  const leadLag = c?.powerFactorLeadLag ?? [];
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="dispatch-pf-label">
        Power factor
      </Text>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Slider
          thumbLabel="Power factor"
          style={{ flex: 1 }}
          mt={8}
          mb={24}
          mx={24}
          min={POWER_FACTOR_MIN}
          max={POWER_FACTOR_MAX}
          step={POWER_FACTOR_STEP}
          precision={2}
          value={draft.powerFactor ?? POWER_FACTOR_MAX}
          disabled={!editable}
          marks={[
            { value: POWER_FACTOR_MIN, label: POWER_FACTOR_MIN.toFixed(2) },
            { value: POWER_FACTOR_MAX, label: POWER_FACTOR_MAX.toFixed(2) },
          ]}
          label={(v) => v.toFixed(2)}
          onChange={(v) => update((d) => withPowerFactor(d, Math.min(pfMax, Math.max(pfMin, v))))}
        />
        <SegmentedControl
          aria-label="Leading or lagging"
          disabled={!editable || !leadLagEditable(draft) || !leadLag.length}
          value={draft.powerFactorLeadLag ?? ''}
          onChange={(v) => update((d) => ({ ...d, powerFactorLeadLag: v as LeadLag }))}
          data={[
            { value: 'LEADING', label: 'Leading' },
            { value: 'LAGGING', label: 'Lagging' },
          ]}
        />
      </Group>
      {!leadLagEditable(draft) && (
        <Text size="xs" c="dimmed">
          {DISPATCH_MESSAGES.leadLagNeedsPowerFactor}
        </Text>
      )}
      {!editable && c && (
        <Text size="xs" c="dimmed">
          {DISPATCH_MESSAGES.powerFactorWhenDischarging}
        </Text>
      )}
    </Stack>
  );
}

/** The warnings about the chosen window and settings: other events then, the delivery, the power factor. */
function EditWarnings({ c, predictions }: { c: DispatchConstraints | undefined; predictions: DispatchPredictions | undefined }) {
  return (
    <>
      {c?.conflictMessage && (
        <Alert color="yellow" variant="light" aria-label="Other events at that time">
          {c.conflictMessage}
        </Alert>
      )}

      {predictions?.delivery?.warning && (
        <Alert color="orange" variant="light" role="alert">
          {predictions.delivery.warning}
        </Alert>
      )}

      {c?.powerFactorConstraintMessage && (
        <Alert color="yellow" variant="light">
          {c.powerFactorConstraintMessage}
        </Alert>
      )}
    </>
  );
}

/** The requested power and, where it applies, the strategy; beside them the power factor for those who may set it. */
function PowerSettings({ p }: { p: EditViewProps }) {
  const { draft, update, can } = p;
  const c = p.constraints;
  return (
    <SimpleGrid cols={{ base: 1, md: can.powerFactor ? 2 : 1 }} spacing="lg">
      <Stack gap="xs">
        {/* The slider snaps to its ends and to 0 within 4% of the range; a typed value is taken as typed. */}
        <PowerControl
          label="Power (kW)"
          inputLabel="Power"
          labelId="dispatch-power-label"
          value={draft.realPowerP}
          min={c?.realPowerPMin ?? 0}
          max={c?.realPowerPMax ?? 0}
          step={DISPATCH_POWER_STEP_KW}
          markZero
          disabled={!!p.locked || !c}
          onSlide={(v) => update((d) => withPower(d, snapSlider(v, c?.realPowerPMin ?? 0, c?.realPowerPMax ?? 0), c))}
          onType={(v) => update((d) => withPower(d, v, c))}
          hint={p.powerHint ?? 'Positive charges the batteries, negative discharges them, 0 locks them out.'}
        />
        {strategyShown(draft, can) && !p.locked && (
          <EventChoice
            label="Strategy"
            value={draft.strategy}
            onChange={(v) => update((d) => ({ ...d, strategy: v }))}
            data={[
              { value: 'greedy', label: 'Greedy' },
              { value: 'uniform', label: 'Uniform' },
            ]}
            hint={
              draft.strategy === 'greedy'
                ? 'Each node matches the requested power for as long as it can.'
                : 'Each node dispatches for the whole duration, at possibly lower power.'
            }
          />
        )}
      </Stack>
      {can.powerFactor && <PowerFactorControl draft={draft} update={update} c={c} />}
    </SimpleGrid>
  );
}

/** The edit view of the New Dispatch modal (spec 3 §2.3 item 1, §4.1). */
export function NewDispatchEditView(p: EditViewProps) {
  const { draft, update, zone, nowS } = p;
  const c = p.constraints;
  const dayStart = graphStart(draft, zone);
  const end = draft.startTime + draft.duration;
  const onSelect = useCallback(
    (from: number, to: number) => {
      const w = brushSelection(from, to, Date.now() / 1000);
      if (w) update((d) => ({ ...d, ...w }));
    },
    [update],
  );
  const blocker = confirmBlocker(draft, c, nowS) ?? p.extraBlocker ?? null;
  const noVpps = p.powerstations.data !== undefined && p.powerstations.data.length === 0;

  return (
    <Stack gap="md">
      {noVpps && <Alert color="yellow">{DISPATCH_MESSAGES.noVpp}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
        <PowerstationSelect powerstations={p.powerstations} value={draft.powerstation} disabled={p.locked} onChange={p.onPowerstation} />
        <EventWindowFields
          startTime={draft.startTime}
          duration={draft.duration}
          zone={zone}
          nowS={nowS}
          maxDaysAhead={MAX_DAYS_AHEAD}
          onStartDate={(date) => update((d) => withStartDate(d, date, zone, Date.now() / 1000))}
          onStartTime={(t) => update((d) => withStartTime(d, t, zone, Date.now() / 1000))}
          onEnd={(t) => update((d) => withEnd(d, t))}
        />
      </SimpleGrid>

      <EditWarnings c={c} predictions={p.predictions.data} />

      <PowerSettings p={p} />

      {p.extra}

      <CustomerMessageSummary
        label="Customer message"
        lines={messageApplies(draft) ? { title: `Customer message: ${draft.message.title}`, text: draft.message.text } : null}
        none="No customer message is sent for a lockout or a power-factor-only dispatch."
        editLabel="Edit message"
        onEdit={p.onEditMessage}
      />

      {draft.powerstation !== null && (
        <NewDispatchChart
          data={p.predictions.data}
          loading={p.predictions.loading}
          dayStart={dayStart}
          zone={zone}
          from={draft.startTime}
          to={end}
          onSelect={onSelect}
        />
      )}

      {p.prices.show && draft.powerstation !== null && <NewDispatchPrices data={p.prices.data} failed={p.prices.failed} loading={p.prices.loading} />}

      <Group justify="flex-end">
        <Button variant="default" onClick={p.onCancel}>
          Cancel
        </Button>
        <Button onClick={p.onConfirm} disabled={blocker !== null} title={blocker ?? undefined}>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}
