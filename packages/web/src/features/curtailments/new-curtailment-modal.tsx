import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Select, SimpleGrid, Slider, Stack, Table, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  CURTAILMENT_POWER_STEP_KW,
  type CurtailmentComponent,
  type CurtailmentConstraint,
  epochToLocalDate,
  formatDateTime,
  formatDuration,
  CURTAILMENT_MESSAGES as M,
  startOfPeriod,
} from '@vpp/shared';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTimeZone } from '../../lib/account.ts';
import { earliestStart, endTimesAfter, REFRESH_DEBOUNCE_MS, startTimesOfDay, useDispatchPowerstations } from '../dispatches/index.ts';
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
const nowS = () => Math.floor(Date.now() / 1000);
const timeFormat = (zone: string) => new Intl.DateTimeFormat('en-AU', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The real power slider (spec 3 §5: maximum 0, step 0.1, minimum the constraint) and the number input beside it. */
function LimitControl(props: { draft: CurtailmentDraft; c: CurtailmentConstraint | undefined; disabled: boolean; onChange: (kw: number) => void }) {
  const { draft, c } = props;
  const { min, max } = powerBounds(c);
  const [text, setText] = useState<string | number>(draft.realPowerP);
  useEffect(() => setText(draft.realPowerP), [draft.realPowerP]);
  const disabled = props.disabled || min === max;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Real power (kW)
      </Text>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Slider
          thumbLabel="Real power (kW)"
          style={{ flex: 1 }}
          mt={8}
          mb={24}
          mx={24}
          min={min}
          // A VPP that cannot be curtailed still draws a slider, held at 0.
          max={min === max ? max + CURTAILMENT_POWER_STEP_KW : max}
          step={CURTAILMENT_POWER_STEP_KW}
          precision={1}
          value={draft.realPowerP}
          disabled={disabled}
          marks={
            disabled
              ? []
              : [
                  { value: min, label: `${min} kW` },
                  { value: max, label: `${max} kW` },
                ]
          }
          label={(v) => `${v.toFixed(1)} kW`}
          onChange={props.onChange}
        />
        <NumberInput
          aria-label="Real power"
          w={120}
          suffix=" kW"
          step={CURTAILMENT_POWER_STEP_KW}
          decimalScale={1}
          min={min}
          max={max}
          clampBehavior="blur"
          value={text}
          disabled={disabled}
          onChange={setText}
          onBlur={() => props.onChange(Number(text) || 0)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') props.onChange(Number(text) || 0);
          }}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {draft.component === 'solar'
          ? `The VPP's solar generation is held to at most ${Math.abs(draft.realPowerP).toFixed(1)} kW.`
          : `The VPP's export at the meters is held to at most ${Math.abs(draft.realPowerP).toFixed(1)} kW.`}
      </Text>
    </Stack>
  );
}

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

  const fmt = useMemo(() => timeFormat(zone), [zone]);
  const today = epochToLocalDate(nowS(), zone);
  const earliest = earliestStart(nowS());
  const startDate = epochToLocalDate(draft.startTime, zone);
  const startOptions = useMemo(() => {
    return startTimesOfDay(startOfPeriod(draft.startTime, 'day', zone), zone).map((t) => ({
      value: String(t),
      label: fmt.format(t * 1000),
      disabled: t < earliest,
    }));
  }, [draft.startTime, zone, fmt, earliest]);
  const end = draft.startTime + draft.duration;
  const endOptions = useMemo(
    () =>
      endTimesAfter(draft.startTime).map((t) => ({
        value: String(t),
        label: `${fmt.format(t * 1000)}${epochToLocalDate(t, zone) === startDate ? '' : ' (next day)'}`,
      })),
    [draft.startTime, zone, fmt, startDate],
  );

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
            <Select
              label="Virtual Power Plant"
              placeholder={powerstations.isLoading ? 'Loading…' : 'Choose a Virtual Power Plant'}
              searchable
              data={(powerstations.data ?? []).map((v) => ({ value: String(v.id), label: v.name }))}
              value={draft.powerstation === null ? null : String(draft.powerstation)}
              onChange={(v) => setDraft((d) => withPowerstation(d, v === null ? null : Number(v)))}
              comboboxProps={{ withinPortal: true }}
            />
            <DatePickerInput
              label="Start date"
              valueFormat="DD/MM/YYYY"
              value={startDate}
              minDate={today}
              maxDate={addDays(today, MAX_DAYS_AHEAD)}
              onChange={(v) => v && setDraft((d) => withStartDate(d, String(v).slice(0, 10), zone, nowS()))}
              popoverProps={{ withinPortal: true }}
            />
            <Select
              label="Start time"
              searchable
              data={startOptions}
              value={String(draft.startTime)}
              onChange={(v) => v && setDraft((d) => withStartTime(d, Number(v), zone, nowS()))}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label="End time"
              searchable
              data={endOptions}
              value={String(end)}
              onChange={(v) => v && setDraft((d) => withEnd(d, Number(v)))}
              description={`Duration ${formatDuration(draft.duration)}`}
              inputWrapperOrder={['label', 'input', 'description']}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Component
              </Text>
              <SegmentedControl
                aria-label="Component"
                w="fit-content"
                value={draft.component}
                onChange={(v) => setDraft((d) => ({ ...d, component: v as CurtailmentComponent }))}
                data={[
                  { value: 'grid', label: 'Net' },
                  { value: 'solar', label: 'Gross' },
                ]}
              />
              <Text size="xs" c="dimmed">
                {draft.component === 'solar' ? 'Gross limits the solar generation of the nodes.' : 'Net limits the export at the nodes’ meters.'}
              </Text>
            </Stack>
            <LimitControl draft={draft} c={c} disabled={!c || !!unavailable} onChange={(kw) => setDraft((d) => withLimit(d, kw, c))} />
          </SimpleGrid>
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
        <Stack>
          <Table aria-label="Curtailment summary" variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              {(
                [
                  ['Virtual Power Plant', vppName],
                  ['Start', formatDateTime(draft.startTime, zone)],
                  ['End', formatDateTime(end, zone)],
                  ['Duration', formatDuration(draft.duration)],
                  ['Limit', limitLabel(draft)],
                ] as const
              ).map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th w="38%" maw={180}>
                    {k}
                  </Table.Th>
                  <Table.Td>{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text fw={600}>{M.confirm}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setView('edit')} disabled={create.isPending}>
              Back
            </Button>
            <Button color="red" onClick={execute} loading={create.isPending}>
              Execute
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
