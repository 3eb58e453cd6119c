import { Alert, Anchor, Button, Group, NumberInput, Paper, SegmentedControl, Select, SimpleGrid, Slider, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import {
  DISPATCH_MESSAGES,
  DISPATCH_POWER_STEP_KW,
  type DispatchConstraints,
  type DispatchPredictions,
  type DispatchPriceReply,
  type DispatchStrategy,
  epochToLocalDate,
  formatDuration,
  type LeadLag,
  POWER_FACTOR_MAX,
  POWER_FACTOR_MIN,
  POWER_FACTOR_STEP,
  snapSlider,
} from '@vpp/shared';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { NewDispatchChart } from './new-dispatch-chart.tsx';
import {
  brushSelection,
  confirmBlocker,
  type DispatchDraft,
  type DraftPermissions,
  earliestStart,
  endTimesAfter,
  graphStart,
  leadLagEditable,
  messageApplies,
  powerFactorEditable,
  startTimesOfDay,
  strategyShown,
  withEnd,
  withPower,
  withPowerFactor,
  withStartDate,
  withStartTime,
} from './new-dispatch-form.ts';
import { NewDispatchPrices } from './new-dispatch-prices.tsx';

/** How far ahead a dispatch can be drawn up: the server predicts at most 7 days ahead. */
const MAX_DAYS_AHEAD = 7;

const timeFormat = (zone: string) => new Intl.DateTimeFormat('en-AU', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** yyyy-MM-dd `days` after a yyyy-MM-dd date (calendar arithmetic, no zone involved). */
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

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
}

/** The power slider (with its 4% snaps) and the number input beside it. */
function PowerControl({
  draft,
  update,
  c,
  locked,
  hint,
}: {
  draft: DispatchDraft;
  update: EditViewProps['update'];
  c: DispatchConstraints | undefined;
  locked: boolean;
  hint: string;
}) {
  const min = c?.realPowerPMin ?? 0;
  const max = c?.realPowerPMax ?? 0;
  const [text, setText] = useState<string | number>(draft.realPowerP);
  useEffect(() => setText(draft.realPowerP), [draft.realPowerP]);
  const disabled = locked || !c || (min === 0 && max === 0);
  const marks = [{ value: min, label: `${min} kW` }, ...(min < 0 && max > 0 ? [{ value: 0, label: '0' }] : []), { value: max, label: `${max} kW` }];
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="dispatch-power-label">
        Power (kW)
      </Text>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Slider
          thumbLabel="Power (kW)"
          style={{ flex: 1 }}
          mt={8}
          mb={24}
          mx={24}
          min={min}
          max={max === min ? min + DISPATCH_POWER_STEP_KW : max}
          step={DISPATCH_POWER_STEP_KW}
          precision={1}
          value={draft.realPowerP}
          disabled={disabled}
          marks={disabled ? [] : marks}
          label={(v) => `${v.toFixed(1)} kW`}
          onChange={(v) => update((d) => withPower(d, snapSlider(v, min, max), c))}
        />
        <NumberInput
          aria-label="Power"
          w={120}
          suffix=" kW"
          step={DISPATCH_POWER_STEP_KW}
          decimalScale={1}
          min={min}
          max={max}
          clampBehavior="blur"
          value={text}
          disabled={disabled}
          onChange={setText}
          onBlur={() => update((d) => withPower(d, Number(text) || 0, c))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') update((d) => withPower(d, Number(text) || 0, c));
          }}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
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

/** The edit view of the New Dispatch modal (spec 3 §2.3 item 1, §4.1). */
export function NewDispatchEditView(p: EditViewProps) {
  const { draft, update, can, zone, nowS } = p;
  const c = p.constraints;
  const fmt = useMemo(() => timeFormat(zone), [zone]);
  const dayStart = graphStart(draft, zone);
  const today = epochToLocalDate(nowS, zone);
  const earliest = earliestStart(nowS);
  const startOptions = useMemo(
    () => startTimesOfDay(dayStart, zone).map((t) => ({ value: String(t), label: fmt.format(t * 1000), disabled: t < earliest })),
    [dayStart, zone, fmt, earliest],
  );
  const end = draft.startTime + draft.duration;
  const endOptions = useMemo(() => {
    const startDate = epochToLocalDate(draft.startTime, zone);
    return endTimesAfter(draft.startTime).map((t) => ({
      value: String(t),
      label: `${fmt.format(t * 1000)}${epochToLocalDate(t, zone) === startDate ? '' : ' (next day)'}`,
    }));
  }, [draft.startTime, zone, fmt]);
  const onSelect = useCallback(
    (from: number, to: number) => {
      const w = brushSelection(from, to, Date.now() / 1000);
      if (w) update((d) => ({ ...d, ...w }));
    },
    [update],
  );
  const blocker = confirmBlocker(draft, c, nowS);
  const noVpps = p.powerstations.data !== undefined && p.powerstations.data.length === 0;

  return (
    <Stack gap="md">
      {noVpps && <Alert color="yellow">{DISPATCH_MESSAGES.noVpp}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
        <Select
          label="Virtual Power Plant"
          placeholder={p.powerstations.loading ? 'Loading…' : 'Choose a Virtual Power Plant'}
          searchable
          data={(p.powerstations.data ?? []).map((v) => ({ value: String(v.id), label: v.name }))}
          value={draft.powerstation === null ? null : String(draft.powerstation)}
          disabled={p.locked}
          onChange={(v) => p.onPowerstation(v === null ? null : Number(v))}
          comboboxProps={{ withinPortal: true }}
        />
        <DatePickerInput
          label="Start date"
          valueFormat="DD/MM/YYYY"
          value={epochToLocalDate(draft.startTime, zone)}
          minDate={today}
          maxDate={addDays(today, MAX_DAYS_AHEAD)}
          onChange={(v) => v && update((d) => withStartDate(d, String(v).slice(0, 10), zone, Date.now() / 1000))}
          popoverProps={{ withinPortal: true }}
        />
        <Select
          label="Start time"
          searchable
          data={startOptions}
          value={String(draft.startTime)}
          onChange={(v) => v && update((d) => withStartTime(d, Number(v), zone, Date.now() / 1000))}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="End time"
          searchable
          data={endOptions}
          value={String(end)}
          onChange={(v) => v && update((d) => withEnd(d, Number(v)))}
          description={`Duration ${formatDuration(draft.duration)}`}
          inputWrapperOrder={['label', 'input', 'description']}
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>

      {c?.powerFactorConstraintMessage && (
        <Alert color="yellow" variant="light">
          {c.powerFactorConstraintMessage}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, md: can.powerFactor ? 2 : 1 }} spacing="lg">
        <Stack gap="xs">
          <PowerControl
            draft={draft}
            update={update}
            c={c}
            locked={!!p.locked}
            hint={p.powerHint ?? 'Positive charges the batteries, negative discharges them, 0 locks them out.'}
          />
          {strategyShown(draft, can) && !p.locked && (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Strategy
              </Text>
              <SegmentedControl
                aria-label="Strategy"
                value={draft.strategy}
                onChange={(v) => update((d) => ({ ...d, strategy: v as DispatchStrategy }))}
                data={[
                  { value: 'greedy', label: 'Greedy' },
                  { value: 'uniform', label: 'Uniform' },
                ]}
                w="fit-content"
              />
              <Text size="xs" c="dimmed">
                {draft.strategy === 'greedy'
                  ? 'Each node matches the requested power for as long as it can.'
                  : 'Each node dispatches for the whole duration, at possibly lower power.'}
              </Text>
            </Stack>
          )}
        </Stack>
        {can.powerFactor && <PowerFactorControl draft={draft} update={update} c={c} />}
      </SimpleGrid>

      <Paper withBorder p="sm" aria-label="Customer message">
        {messageApplies(draft) ? (
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600}>
                Customer message: {draft.message.title}
              </Text>
              <Text size="sm" c="dimmed" lineClamp={2}>
                {draft.message.text}
              </Text>
            </div>
            <Anchor component="button" type="button" size="sm" onClick={p.onEditMessage}>
              Edit message
            </Anchor>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            No customer message is sent for a lockout or a power-factor-only dispatch.
          </Text>
        )}
      </Paper>

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
