import { Accordion, Alert, Anchor, Badge, Group, List, Progress, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { EXPORT_EDIT } from '@vpp/shared/exports/permissions';
import { EXPORT_STATUS_TEXT, type ExportFile, type ExportJob } from '@vpp/shared/exports/schemas';
import { formatDateTime } from '@vpp/shared/format';
import { useEffect, useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { useAccount } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { API_BASE } from '../../lib/request.ts';
import { useCancelExport, useExportJob } from './api.ts';
import {
  formatFileSize,
  formatTimeRemaining,
  intervalLabel,
  isActive,
  metricLabels,
  STATUS_COLOURS,
  EXPORT_SCREEN_TEXTS as T,
  taskPeriod,
  taskTitle,
} from './export-format.ts';

/** A job's status badge, with the spec's text (spec 2 §4). */
export function ExportStatusBadge({ job }: { job: Pick<ExportJob, 'status'> }) {
  return (
    <Badge color={STATUS_COLOURS[job.status]} variant="light">
      {EXPORT_STATUS_TEXT[job.status]}
    </Badge>
  );
}

/** One file of a finished export: a link with its name and size, or the metric with '(no data)'. */
function FileLine({ file }: { file: ExportFile }) {
  if (file.empty || !file.signed_url) {
    return (
      <Text size="sm" c="dimmed">
        {`${file.label} ${M.noData}`}
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <IconDownload size={16} aria-hidden />
      <Anchor href={`${API_BASE}${file.signed_url}`} download={file.filename} size="sm" aria-label={`Download ${file.filename}`}>
        {file.filename}
      </Anchor>
      <Text size="sm" c="dimmed">
        {`${file.label} · ${formatFileSize(file.size)}`}
      </Text>
    </Group>
  );
}

/** A completed job's files, fetched when its item is open or it was tracked to completion; its result state when it has none (spec 2 §8). */
function ExportFiles({ job, detail }: { job: ExportJob; detail: ReturnType<typeof useExportJob> }) {
  if (detail.isError) {
    return (
      <Alert color="red" variant="light">
        {M.generateError}
      </Alert>
    );
  }
  if (!detail.data) return <LoadingSkeleton variant="lines" rows={Math.min(Math.max(job.metrics.length, 1), 6)} label="Loading files" />;
  const d = detail.data.details;
  if (d.empty) {
    return (
      <Alert color="gray" variant="light">
        {job.task_type === 'customer' ? M.noCustomerData : M.noOperationalData}
      </Alert>
    );
  }
  return (
    <Stack gap={6}>
      {job.task_type === 'operational' && (
        <Text size="sm" c="dimmed">
          {M.blankFieldsNote}
        </Text>
      )}
      <List listStyleType="none" spacing={6} aria-label="Files">
        {d.signed_urls.map((f) => (
          <List.Item key={f.filename}>
            <FileLine file={f} />
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** A fact about the job: a label and its value. */
function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={180} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Group>
  );
}

/** What the job was asked for. */
function JobFacts({ job }: { job: ExportJob }) {
  const i = job.task_info;
  const period = taskPeriod(job);
  const options = [i.splitPhases && M.splitByPhase, i.aggByPowerstation && M.aggregateByVpp, i.submeters && M.includeSubmeters].filter(Boolean).join(', ');
  return (
    <Stack gap={4}>
      {i.deploymentUids.length > 0 && <Fact label="Nodes" value={i.deploymentUids.join(', ')} />}
      {period && <Fact label="Period" value={`${period} (${i.timezone})`} />}
      {job.task_type === 'operational' && <Fact label="Metrics" value={metricLabels(job).join(', ')} />}
      {i.interval && <Fact label={M.downsamplingInterval} value={intervalLabel(i.interval)} />}
      {options && <Fact label="Options" value={options} />}
      {i.all_customers !== null && <Fact label={M.customerSet} value={i.all_customers ? M.allCustomersInFleet : M.allCustomersOnNetwork} />}
    </Stack>
  );
}

/** A running job's progress and the time it has left. */
function JobProgress({ job }: { job: ExportJob }) {
  const pct = Math.round(Math.min(1, Math.max(0, job.progress)) * 100);
  return (
    <Stack gap={4} miw={180}>
      <Progress value={pct} aria-label={`Progress ${pct}%`} animated={job.status === 'PROGRESS'} size="sm" />
      <Text size="xs" c="dimmed">
        {job.status === 'PENDING' ? T.waiting : `${pct}% · ${formatTimeRemaining(job.time_remaining)}`}
      </Text>
    </Stack>
  );
}

/**
 * One export in the accordion of tasks (spec 2 §2): its title, status, submission time and progress;
 * opened, what it was asked for and its result: the files of a completed export (one per metric,
 * with size and file name, '(no data)' for a metric without data), the result state of §8, or a
 * cancel for a running one, offered as the server allows it: to the export's creator (task_info.user)
 * and to users with export edit.
 */
export function ExportTaskItem({ job, zone, open }: { job: ExportJob; zone: string; open: boolean }) {
  const cancel = useCancelExport();
  const editor = usePermission(EXPORT_EDIT);
  const me = useAccount().data?.id;
  const mayCancel = editor || job.task_info.user === me;
  const active = isActive(job.status);
  // A job seen submitted or in progress is tracked: once it succeeds its files are fetched, open or
  // not (spec 2 §4), so they are there when it is opened.
  const [tracked, setTracked] = useState(active);
  useEffect(() => {
    if (active) setTracked(true);
  }, [active]);
  // Asked for here, not in the panel: a closed item's panel is not mounted.
  const detail = useExportJob(job.task_id, job.status === 'SUCCESS' && (open || tracked));
  return (
    <Accordion.Item value={String(job.task_id)}>
      <Accordion.Control>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2}>
            <Text fw={500} size="sm">
              {taskTitle(job)}
            </Text>
            <Text size="xs" c="dimmed">
              {`Submitted ${formatDateTime(job.ts, zone)} · ${job.reference_id}`}
            </Text>
          </Stack>
          <Group gap="md" wrap="nowrap">
            {active && <JobProgress job={job} />}
            <ExportStatusBadge job={job} />
          </Group>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          <JobFacts job={job} />
          {job.status === 'SUCCESS' && <ExportFiles job={job} detail={detail} />}
          {job.status === 'FAILURE' && (
            <Alert color="red" variant="light">
              {M.generateError}
            </Alert>
          )}
          {job.status === 'REMOVED' && <Text size="sm">{T.filesRemoved}</Text>}
          {job.status === 'CANCELLED' && <Text size="sm">{T.cancelledNote}</Text>}
          {active && mayCancel && (
            <Group>
              <ConfirmButton
                label={T.cancelExport}
                title={T.cancelExport}
                question={T.cancelQuestion}
                confirmLabel={T.cancelExport}
                onConfirm={() => cancel.mutateAsync(job.task_id)}
              />
            </Group>
          )}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
