import { Anchor, Checkbox, MultiSelect, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { EXPORT_FALLBACK_INTERVAL, EXPORT_INTERVALS, type ExportInterval, type ExportMetric, type ExportMetricOption } from '@vpp/shared/exports/schemas';
import type { Powerstation } from '@vpp/shared/vpps/schemas';
import { ExportFormFrame } from './export-form-frame.tsx';
import { NodeSelector } from './node-selector.tsx';
import { type OperationalDraft, offeredMetrics, withAggregate, withIncludeSubmeters, withNode, withoutNode, withSplitPhases } from './operational-form.ts';

const fallbackLabel = EXPORT_INTERVALS.find((i) => i.value === EXPORT_FALLBACK_INTERVAL)?.label ?? EXPORT_FALLBACK_INTERVAL;

/** A yyyy-MM-dd value of a date picker, or null when cleared. */
const pickedDate = (v: unknown) => (v ? String(v).slice(0, 10) : null);

/**
 * The New Operational Data Export form (spec 2 §2, §5): a VPP (VPP type) or nodes (node type), Start
 * and End (dd/MM/yyyy, in the account's time zone), the metrics with Select All Metrics, the
 * downsampling interval, the three options, the blank-fields note, Cancel and Begin Export. Errors
 * show on their fields once Begin Export has been tried.
 */
export function OperationalExportForm(props: {
  draft: OperationalDraft;
  update: (f: (d: OperationalDraft) => OperationalDraft) => void;
  allowed: readonly ExportMetricOption[];
  powerstations: Powerstation[] | undefined;
  today: string;
  zone: string;
  errors: Record<string, string>;
  submitting: boolean;
  onCancel: () => void;
  onSubmit: () => void;
}) {
  const { draft: d, update, errors } = props;
  const offered = offeredMetrics(props.allowed, d.includeSubmeters);
  return (
    <ExportFormFrame submitting={props.submitting} onCancel={props.onCancel} onSubmit={props.onSubmit}>
      {d.kind === 'vpp' ? (
        <Select
          label="Virtual Power Plant"
          placeholder={props.powerstations ? 'Choose a Virtual Power Plant' : 'Loading…'}
          searchable
          data={(props.powerstations ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={d.powerstation === null ? null : String(d.powerstation)}
          onChange={(v) => update((x) => ({ ...x, powerstation: v ? Number(v) : null }))}
          error={errors.powerstation}
          comboboxProps={{ withinPortal: true }}
        />
      ) : (
        <NodeSelector
          nodes={d.nodes}
          onAdd={(n) => update((x) => withNode(x, n))}
          onRemove={(id) => update((x) => withoutNode(x, id))}
          error={errors.deploymentUids}
        />
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <DatePickerInput
          label="Start"
          valueFormat="DD/MM/YYYY"
          placeholder="dd/mm/yyyy"
          clearable
          value={d.startDate}
          maxDate={props.today}
          previousLabel="Previous month"
          nextLabel="Next month"
          onChange={(v) => update((x) => ({ ...x, startDate: pickedDate(v) }))}
          error={errors.start}
          popoverProps={{ withinPortal: true }}
        />
        <DatePickerInput
          label="End"
          valueFormat="DD/MM/YYYY"
          placeholder="dd/mm/yyyy"
          clearable
          value={d.endDate}
          maxDate={props.today}
          previousLabel="Previous month"
          nextLabel="Next month"
          onChange={(v) => update((x) => ({ ...x, endDate: pickedDate(v) }))}
          error={errors.end}
          popoverProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt={-8}>
        {`Whole days from the start of Start to the end of End, in ${props.zone}.`}
      </Text>
      <Stack gap={4}>
        <MultiSelect
          label="Metrics"
          placeholder={d.queries.length ? undefined : 'Choose metrics'}
          data={offered.map((m) => ({ value: m.id, label: m.label }))}
          value={d.queries}
          onChange={(v) => update((x) => ({ ...x, queries: v as ExportMetric[] }))}
          error={errors.queries}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
        <Anchor component="button" type="button" size="sm" w="fit-content" onClick={() => update((x) => ({ ...x, queries: offered.map((m) => m.id) }))}>
          {M.selectAllMetrics}
        </Anchor>
      </Stack>
      <Select
        label={M.downsamplingInterval}
        description={d.interval === null ? `Cleared, the export uses ${fallbackLabel}.` : undefined}
        inputWrapperOrder={['label', 'input', 'description']}
        data={EXPORT_INTERVALS.map((i) => ({ value: i.value, label: i.label }))}
        value={d.interval}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the interval' }}
        onChange={(v) => update((x) => ({ ...x, interval: (v as ExportInterval | null) ?? null }))}
        comboboxProps={{ withinPortal: true }}
      />
      <Stack gap="xs">
        <Checkbox
          label={M.splitByPhase}
          checked={d.splitPhases}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            update((x) => withSplitPhases(x, on));
          }}
        />
        {d.kind === 'vpp' && (
          <Checkbox
            label={M.aggregateByVpp}
            checked={d.aggByPowerstation}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              update((x) => withAggregate(x, on));
            }}
            error={errors.aggByPowerstation}
          />
        )}
        {d.kind === 'vpp' && d.exclusive && (
          <Text size="sm" c="orange" role="status">
            {M.splitWithAggregate}
          </Text>
        )}
        <Checkbox
          label={M.includeSubmeters}
          checked={d.includeSubmeters}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            update((x) => withIncludeSubmeters(x, on, props.allowed));
          }}
        />
      </Stack>
      <Text size="sm" c="dimmed">
        {M.blankFieldsNote}
      </Text>
    </ExportFormFrame>
  );
}
