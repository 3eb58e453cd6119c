import { SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { formatDuration } from '@vpp/shared/format';
import { epochToLocalDate, startOfPeriod } from '@vpp/shared/time';
import { useMemo } from 'react';
import { earliestStart, endTimesAfter, startTimesOfDay } from './event-window.ts';

const timeFormat = (zone: string) => new Intl.DateTimeFormat('en-AU', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** yyyy-MM-dd `days` after a yyyy-MM-dd date (calendar arithmetic, no zone involved). */
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The Virtual Power Plant choice of every New event modal (dispatch, RERT, curtailment, grid outage). */
export function PowerstationSelect(props: {
  powerstations: { data: { id: number; name: string }[] | undefined; loading: boolean };
  value: number | null;
  disabled?: boolean;
  onChange: (id: number | null) => void;
}) {
  return (
    <Select
      label="Virtual Power Plant"
      placeholder={props.powerstations.loading ? 'Loading…' : 'Choose a Virtual Power Plant'}
      searchable
      data={(props.powerstations.data ?? []).map((v) => ({ value: String(v.id), label: v.name }))}
      value={props.value === null ? null : String(props.value)}
      disabled={props.disabled}
      onChange={(v) => props.onChange(v === null ? null : Number(v))}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * An event's window as every New event modal draws it (spec 3 §4.1, §9): Start date (dd/MM/yyyy,
 * from today, at most `maxDaysAhead` days ahead when given), Start time (the day's 5-minute steps in
 * `zone`, those before the next step from now disabled) and End time (5-minute steps after the start,
 * the next day's marked, the duration under it). The caller turns each choice into its draft.
 */
export function EventWindowFields(props: {
  startTime: number;
  duration: number;
  zone: string;
  nowS: number;
  maxDaysAhead?: number;
  onStartDate: (date: string) => void;
  onStartTime: (t: number) => void;
  onEnd: (t: number) => void;
}) {
  const { startTime, zone, nowS } = props;
  const fmt = useMemo(() => timeFormat(zone), [zone]);
  const today = epochToLocalDate(nowS, zone);
  const earliest = earliestStart(nowS);
  const dayStart = startOfPeriod(startTime, 'day', zone);
  const startOptions = useMemo(
    () => startTimesOfDay(dayStart, zone).map((t) => ({ value: String(t), label: fmt.format(t * 1000), disabled: t < earliest })),
    [dayStart, zone, fmt, earliest],
  );
  const end = startTime + props.duration;
  const endOptions = useMemo(() => {
    const startDate = epochToLocalDate(startTime, zone);
    return endTimesAfter(startTime).map((t) => ({
      value: String(t),
      label: `${fmt.format(t * 1000)}${epochToLocalDate(t, zone) === startDate ? '' : ' (next day)'}`,
    }));
  }, [startTime, zone, fmt]);
  return (
    <>
      <DatePickerInput
        label="Start date"
        valueFormat="DD/MM/YYYY"
        value={epochToLocalDate(startTime, zone)}
        minDate={today}
        maxDate={props.maxDaysAhead === undefined ? undefined : addDays(today, props.maxDaysAhead)}
        onChange={(v) => v && props.onStartDate(String(v).slice(0, 10))}
        popoverProps={{ withinPortal: true }}
      />
      <Select
        label="Start time"
        searchable
        data={startOptions}
        value={String(startTime)}
        onChange={(v) => v && props.onStartTime(Number(v))}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        label="End time"
        searchable
        data={endOptions}
        value={String(end)}
        onChange={(v) => v && props.onEnd(Number(v))}
        description={`Duration ${formatDuration(props.duration)}`}
        inputWrapperOrder={['label', 'input', 'description']}
        comboboxProps={{ withinPortal: true }}
      />
    </>
  );
}

/** A choice of a few ways (a dispatch's strategy, a curtailment's Net or Gross): its label, the segments and a hint on the one chosen. */
export function EventChoice<V extends string>(props: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  data: { value: V; label: string }[];
  hint: string;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {props.label}
      </Text>
      <SegmentedControl aria-label={props.label} w="fit-content" value={props.value} onChange={(v) => props.onChange(v as V)} data={props.data} />
      <Text size="xs" c="dimmed">
        {props.hint}
      </Text>
    </Stack>
  );
}
