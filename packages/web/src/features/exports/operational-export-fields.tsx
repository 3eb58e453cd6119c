import { Checkbox, SimpleGrid, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import type { ExportMetricOption } from '@vpp/shared/exports/schemas';
import { type OperationalDraft, withAggregate, withIncludeSubmeters, withSplitPhases } from './operational-form.ts';

/** A yyyy-MM-dd value of a date picker, or null when cleared. */
const pickedDate = (v: unknown) => (v ? String(v).slice(0, 10) : null);

/** The range's two days: its field, its value in the range, and its key in the form's errors. */
const DAY_FIELDS = [
  { label: 'Start', key: 'startDate', error: 'start' },
  { label: 'End', key: 'endDate', error: 'end' },
] as const;

/** Start and End of an operational export (dd/MM/yyyy, whole days in the account's time zone). */
export function ExportDateRange(props: {
  startDate: string | null;
  endDate: string | null;
  today: string;
  zone: string;
  errors: Record<string, string>;
  onChange: (range: { startDate?: string | null; endDate?: string | null }) => void;
}) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        {DAY_FIELDS.map((day) => (
          <DatePickerInput
            key={day.key}
            label={day.label}
            valueFormat="DD/MM/YYYY"
            placeholder="dd/mm/yyyy"
            clearable
            value={props[day.key]}
            maxDate={props.today}
            previousLabel="Previous month"
            nextLabel="Next month"
            onChange={(v) => props.onChange({ [day.key]: pickedDate(v) })}
            error={props.errors[day.error]}
            popoverProps={{ withinPortal: true }}
          />
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt={-8}>
        {`Whole days from the start of Start to the end of End, in ${props.zone}.`}
      </Text>
    </>
  );
}

/** Split by phase, aggregate by VPP (VPP exports; the two exclude each other) and include submeters. */
export function OperationalOptions(props: {
  draft: OperationalDraft;
  update: (f: (d: OperationalDraft) => OperationalDraft) => void;
  allowed: readonly ExportMetricOption[];
  error: string | undefined;
}) {
  return (
    <Stack gap="xs">
      <Checkbox
        label={M.splitByPhase}
        checked={props.draft.splitPhases}
        onChange={(e) => {
          const on = e.currentTarget.checked;
          props.update((x) => withSplitPhases(x, on));
        }}
      />
      {props.draft.kind === 'vpp' && (
        <Checkbox
          label={M.aggregateByVpp}
          checked={props.draft.aggByPowerstation}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            props.update((x) => withAggregate(x, on));
          }}
          error={props.error}
        />
      )}
      {props.draft.kind === 'vpp' && props.draft.exclusive && (
        <Text size="sm" c="orange" role="status">
          {M.splitWithAggregate}
        </Text>
      )}
      <Checkbox
        label={M.includeSubmeters}
        checked={props.draft.includeSubmeters}
        onChange={(e) => {
          const on = e.currentTarget.checked;
          props.update((x) => withIncludeSubmeters(x, on, props.allowed));
        }}
      />
    </Stack>
  );
}
