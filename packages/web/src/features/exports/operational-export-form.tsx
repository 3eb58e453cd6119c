import { Anchor, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { EXPORT_FALLBACK_INTERVAL, EXPORT_INTERVALS, type ExportInterval, type ExportMetric, type ExportMetricOption } from '@vpp/shared/exports/schemas';
import type { Powerstation } from '@vpp/shared/vpps/schemas';
import { ExportFormFrame } from './export-form-frame.tsx';
import { NodeSelector } from './node-selector.tsx';
import { ExportDateRange, OperationalOptions } from './operational-export-fields.tsx';
import { type OperationalDraft, offeredMetrics, withNode, withoutNode } from './operational-form.ts';

const fallbackLabel = EXPORT_INTERVALS.find((i) => i.value === EXPORT_FALLBACK_INTERVAL)?.label ?? EXPORT_FALLBACK_INTERVAL;

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
      <ExportDateRange
        startDate={d.startDate}
        endDate={d.endDate}
        today={props.today}
        zone={props.zone}
        errors={errors}
        onChange={(range) => update((x) => ({ ...x, ...range }))}
      />
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
      <OperationalOptions draft={d} update={update} allowed={props.allowed} error={errors.aggByPowerstation} />
      <Text size="sm" c="dimmed">
        {M.blankFieldsNote}
      </Text>
    </ExportFormFrame>
  );
}
