import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import {
  EXPORT_ACTIVE_REFRESH_MS,
  EXPORT_ACTIVE_STATUSES,
  EXPORT_INTERVALS,
  EXPORT_REFRESH_MS,
  type ExportJob,
  type ExportStatus,
  exportMetricOption,
} from '@vpp/shared/exports/schemas';
import { formatDate } from '@vpp/shared/format';
import { z } from 'zod';
import { pagingSearch } from '../../components/data-table.tsx';

/** Texts of the page that the spec leaves to us. */
export const EXPORT_SCREEN_TEXTS = {
  empty: 'There are no data exports yet. Choose New Export to start one.',
  cancelExport: 'Cancel Export',
  cancelQuestion: 'Stop this export? Its files will not be kept.',
  back: 'Back',
  filesRemoved: M.filesRemoved,
  cancelledNote: 'This export was cancelled: it kept no files.',
  waiting: 'Waiting for a worker to start it.',
} as const;

/** Colour of each status's badge. */
export const STATUS_COLOURS: Record<ExportStatus, string> = {
  SUCCESS: 'green',
  PENDING: 'gray',
  PROGRESS: 'blue',
  FAILURE: 'red',
  REMOVED: 'dark',
  CANCELLED: 'orange',
};

export const isActive = (status: ExportStatus) => EXPORT_ACTIVE_STATUSES.includes(status);

/** The list's refresh (spec 2 §4), given the newest exports first: every 5 s while the newest is PENDING or PROGRESS, otherwise every 30 s. */
export function listRefreshMs(tasks: readonly Pick<ExportJob, 'status'>[] | undefined): number {
  return tasks?.[0] && isActive(tasks[0].status) ? EXPORT_ACTIVE_REFRESH_MS : EXPORT_REFRESH_MS;
}

/** A yyyy-MM-dd date, or absent; anything else counts as absent. */
const dateParam = () =>
  z
    .string()
    .optional()
    .transform((v) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? v : undefined));
/** 'true' or 'false', or absent (undefined: the query says nothing about it). */
const flagParam = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === 'true' ? true : v === 'false' ? false : undefined));

/**
 * The page's query (spec 2 §2): the list's limit and offset; `deploymentId` opens the node export
 * with that node chosen; the redirect queries `start` and `end` (the first and last day, yyyy-MM-dd)
 * and `solar`, `battery`, `sga` (whether the node's graph showed them) prefill its form.
 */
export const exportSearch = pagingSearch.extend({
  deploymentId: z
    .string()
    .optional()
    .transform((v) => (v && /^[1-9]\d{0,9}$/.test(v) && Number(v) <= 2 ** 31 - 1 ? Number(v) : undefined)),
  start: dateParam(),
  end: dateParam(),
  solar: flagParam(),
  battery: flagParam(),
  sga: flagParam(),
});
export type ExportSearch = z.output<typeof exportSearch>;

/** The redirect-query parameters: cleared from the URL once the form they opened is done with. */
export const REDIRECT_PARAMS = ['deploymentId', 'start', 'end', 'solar', 'battery', 'sga'] as const;

/** Whether the page was opened by a redirect that prefills the form (Cancel then goes back in history, spec 2 §4). */
export const isPrefilled = (q: ExportSearch) =>
  q.start !== undefined || q.end !== undefined || q.solar !== undefined || q.battery !== undefined || q.sga !== undefined;

/** A file size: '812 B', '14.2 kB', '3.40 MB' (decimal units, as browsers show downloads). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(2)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

/** How long a running export has left, from its time_remaining in ms (null until the job has measured its rate). */
export function formatTimeRemaining(ms: number | null): string {
  if (ms === null) return 'Estimating time remaining…';
  const s = Math.round(ms / 1000);
  if (s < 60) return 'Less than a minute remaining';
  const m = Math.round(s / 60);
  if (m < 60) return `About ${m} min remaining`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return `About ${h} h${rest ? ` ${rest} min` : ''} remaining`;
}

/** What a job is for, as its accordion item's title. */
export function taskTitle(job: ExportJob): string {
  if (job.task_type === 'customer') return job.task_info.powerstationName ? `${M.tileCustomer}: ${job.task_info.powerstationName}` : M.tileCustomer;
  if (job.task_info.powerstation !== null) return `${M.tileVpp}: ${job.task_info.powerstationName ?? `VPP ${job.task_info.powerstation}`}`;
  const n = job.task_info.deploymentUids.length;
  return `${M.tileNodes}: ${n === 1 ? `node ${job.task_info.deploymentUids[0]}` : `${n} nodes`}`;
}

/** The days an operational export covers, 'dd/MM/yyyy – dd/MM/yyyy' (its end is the midnight after the last day). */
export function taskPeriod(job: ExportJob): string | null {
  const { start, end, timezone } = job.task_info;
  if (start === null || end === null) return null;
  const first = formatDate(start, timezone);
  const last = formatDate(end - 1, timezone);
  return first === last ? first : `${first} – ${last}`;
}

/** The labels of a job's metrics. */
export const metricLabels = (job: ExportJob) => job.metrics.map((m) => exportMetricOption(m)?.label ?? m);

/** An interval's label ('1 hour'). */
export const intervalLabel = (v: string | null) => EXPORT_INTERVALS.find((i) => i.value === v)?.label ?? v ?? '';
