import { Anchor, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { zoneLabel } from '@vpp/shared/time';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { NodeStatusBadge } from '../../components/node-status-badge.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { loadable } from '../../lib/loadable.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { isNotFound } from '../../lib/request.ts';
import { useGoBack } from '../../lib/routes.tsx';
import { param, useSearchState } from '../../lib/search-state.ts';
import { NODE_NOT_FOUND, useNodeDetail } from './api.ts';
import { EventLogTab } from './event-log-tab.tsx';
import { SiteLabel } from './site-label.tsx';
import { SystemComponentsTab } from './system-components-tab.tsx';

// The tabs that draw (the graph with its date picker, the map) load when first shown; the Monitoring
// tab (the default) starts loading with the page, beside the node's detail.
const MonitoringTab = loadable(
  async () => (await import('./monitoring-tab.tsx')).MonitoringTab,
  () => <LoadingSkeleton variant="chart" height={380} label="Loading graph" />,
);
const LocationTab = lazy(async () => ({ default: (await import('./location-tab.tsx')).LocationTab }));

void MonitoringTab.preload().catch(() => undefined);

const FLEET_LIST = '/fleet-monitoring/nodes?limit=10&offset=0';
const TABS = ['MONITORING', 'SYSTEM_COMPONENTS', 'LOCATION', 'EVENT_LOG'] as const;
const nodeDetailSearch = z.object({ tab: param.oneOf(TABS, 'MONITORING') });

/** Node detail (/fleet-monitoring/nodes/{id}): site label and the four tabs; data refreshes every 10 s. */
export function NodeDetailPage() {
  const id = Number(useParams().id);
  const goBack = useGoBack(FLEET_LIST);
  const [{ tab }, setSearch] = useSearchState(nodeDetailSearch);
  const node = useNodeDetail(id);
  // The site label shows once, under the title, where it is edited (the title names the node).
  const title = isNotFound(node.error) ? 'Node not found' : `Node ${id}`;
  const canViewData = usePermission('fleet.node.data.view');
  // The graph, the event log and 'Offline since' are in the node's zone: said when the user's differs.
  const userZone = useTimeZone();

  return (
    <PageLayout title={title} permission="fleet.node.any" breadcrumb={[{ label: 'Fleet Monitoring', to: FLEET_LIST }, { label: `Node ${id}` }]}>
      <Anchor component="button" onClick={goBack} size="sm" w="fit-content">
        <Group gap={4}>
          <IconArrowLeft size={14} /> Go Back
        </Group>
      </Anchor>
      {node.isPending && <LoadingSkeleton />}
      {isNotFound(node.error) && <NotFound text={NODE_NOT_FOUND} listPath={FLEET_LIST} backLabel="Back to Fleet Monitoring" />}
      {node.data && (
        <Stack gap="md">
          <Group gap="md">
            {/* Another tab is another task: an edit left open there is dropped (keyed by the tab). */}
            <SiteLabel key={tab} node={node.data} />
            <NodeStatusBadge node={node.data} timeZone={node.data.timezone} />
            <Text size="sm" c="dimmed">
              {node.data.address.text}
            </Text>
          </Group>
          {node.data.timezone !== userZone && (
            <Text size="sm" c="dimmed">
              {`Times on this page are the node's local time, ${zoneLabel(node.data.timezone, Date.now() / 1000)}; yours is ${zoneLabel(userZone, Date.now() / 1000)}.`}
            </Text>
          )}
          {/* Only the tab changes: the graph settings and paging stay, so going back to Monitoring keeps them. */}
          <Tabs value={tab} onChange={(v) => setSearch({ tab: !v || v === 'MONITORING' ? null : (v as (typeof TABS)[number]) })} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="MONITORING">Monitoring</Tabs.Tab>
              <Tabs.Tab value="SYSTEM_COMPONENTS">System Components</Tabs.Tab>
              <Tabs.Tab value="LOCATION">Location</Tabs.Tab>
              <Tabs.Tab value="EVENT_LOG">Event Log</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="MONITORING" pt="md">
              {canViewData ? (
                <MonitoringTab node={node.data} />
              ) : (
                <Text c="dimmed">Viewing this node's monitoring graph and energy summary needs the Node data permission.</Text>
              )}
            </Tabs.Panel>
            <Tabs.Panel value="SYSTEM_COMPONENTS" pt="md">
              <SystemComponentsTab node={node.data} />
            </Tabs.Panel>
            <Tabs.Panel value="LOCATION" pt="md">
              <Suspense fallback={<LoadingSkeleton variant="chart" height={400} label="Loading map" />}>
                <LocationTab node={node.data} />
              </Suspense>
            </Tabs.Panel>
            <Tabs.Panel value="EVENT_LOG" pt="md">
              <EventLogTab node={node.data} />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </PageLayout>
  );
}
