import { Accordion, Alert, Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { EXPORT_VIEW } from '@vpp/shared/exports/permissions';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Pager } from '../../components/data-table.tsx';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { TimesInZone } from '../../components/times-in-zone.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { canGoBackInApp } from '../../lib/routes.tsx';
import { useSearchState } from '../../lib/search-state.ts';
import { useExportJobs, useExportNode } from './api.ts';
import { exportSearch, isPrefilled, REDIRECT_PARAMS, EXPORT_SCREEN_TEXTS as T } from './export-format.ts';
import { ExportTaskItem } from './export-task-item.tsx';
import { type ExportView, NewExportModal } from './new-export-modal.tsx';
import { suggestionLabel } from './operational-form.ts';

const noRedirect = Object.fromEntries(REDIRECT_PARAMS.map((k) => [k, null]));

/**
 * Data Export (csv) at /analysis/export?limit&offset (spec 2 §2, §4): the organisation's exports in an
 * accordion of tasks, newest first and open, refreshed every 30 s (5 s while the newest runs), paged;
 * New Export. `deploymentId` opens the node export with that node chosen, and the redirect queries
 * (start, end, solar, battery, sga) prefill it; Cancel then goes back to where the redirect came from.
 */
export function ExportListPage() {
  const [q, setQuery] = useSearchState(exportSearch);
  const zone = useTimeZone();
  const navigate = useNavigate();
  const location = useLocation();
  const list = useExportJobs({ limit: q.limit, offset: q.offset });
  const tasks = list.data?.tasks;

  // The node a deploymentId names (for its line in the selected list).
  const linkedNode = useExportNode(q.deploymentId);
  const [view, setView] = useState<ExportView | null>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (q.deploymentId !== undefined && !opened.current) {
      opened.current = true;
      setView('nodes');
    }
  }, [q.deploymentId]);
  const prefill =
    q.deploymentId === undefined
      ? undefined
      : {
          node: linkedNode.data ? { id: linkedNode.data.id, label: suggestionLabel(linkedNode.data) } : undefined,
          start: q.start,
          end: q.end,
          solar: q.solar,
          battery: q.battery,
          sga: q.sga,
        };

  // The newest export shows open; so does each one the user submits.
  const [open, setOpen] = useState<string[] | null>(null);
  const shownOpen = open ?? (tasks?.[0] && q.offset === 0 ? [String(tasks[0].task_id)] : []);

  // A page past the last one (a link kept while exports were removed): the last page that has some.
  const total = list.data?.total;
  // biome-ignore lint/correctness/useExhaustiveDependencies: moves only when the total or the page changes
  useEffect(() => {
    if (total !== undefined && total > 0 && q.offset >= total) setQuery({ offset: Math.floor((total - 1) / q.limit) * q.limit }, { replace: true });
  }, [total, q.offset, q.limit]);

  const close = (how: 'cancel' | 'done') => {
    setView(null);
    const redirected = q.deploymentId !== undefined && isPrefilled(q);
    // Cancel after a redirect returns where it came from (spec 2 §4), when there is such a place in this app.
    if (how === 'cancel' && redirected && canGoBackInApp(location)) navigate(-1);
    else if (q.deploymentId !== undefined || isPrefilled(q)) setQuery(noRedirect, { replace: true });
  };

  return (
    <PageLayout
      title={M.pageTitle}
      permission={EXPORT_VIEW}
      breadcrumb={[{ label: 'Analysis' }, { label: M.pageTitle }]}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setView('choose')}>
          {M.newExport}
        </Button>
      }
    >
      {list.isError && !tasks && (
        <Alert color="red" variant="light">
          {M.historyFailed}
        </Alert>
      )}
      {list.isLoading && <LoadingSkeleton variant="table" rows={Math.min(q.limit, 10)} label="Loading exports" />}
      {tasks && tasks.length === 0 && (list.data?.total ?? 0) === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {T.empty}
        </Text>
      )}
      {tasks && tasks.length > 0 && (
        <Accordion multiple variant="separated" value={shownOpen} onChange={setOpen} aria-label="Exports">
          {tasks.map((job) => (
            <ExportTaskItem key={job.task_id} job={job} zone={zone} open={shownOpen.includes(String(job.task_id))} />
          ))}
        </Accordion>
      )}
      <Pager total={list.data?.total ?? 0} limit={q.limit} offset={q.offset} onPage={(limit, offset) => setQuery({ limit, offset })} />
      <TimesInZone zone={zone} />
      <NewExportModal
        view={view}
        onView={setView}
        onClose={close}
        onCreated={(job) => setOpen((o) => [String(job.task_id), ...(o ?? shownOpen)])}
        prefill={prefill}
      />
    </PageLayout>
  );
}
