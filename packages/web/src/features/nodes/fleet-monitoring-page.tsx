import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconList, IconMap } from '@tabler/icons-react';
import { SORT_ORDERS } from '@vpp/shared/api/inputs';
import { formatDateTime } from '@vpp/shared/format';
import { NODE_SEARCH_MAX, NODE_SEARCH_TOO_LONG, NODE_SORTS, NODE_STATUSES, type Node } from '@vpp/shared/nodes/schemas';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { type Column, DataTable, pagingSearch } from '../../components/data-table.tsx';
import { FleetSearchInput, useTypedSearch } from '../../components/fleet-search.tsx';
import { NodeMap, STATUS_LABELS, useMapHeight } from '../../components/node-map.tsx';
import { NodeStatusBadge } from '../../components/node-status-badge.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { sortHeaders } from '../../components/sort-header.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { param, useSearchState } from '../../lib/search-state.ts';
import { useFleetMap, useNodeList } from './api.ts';

const fleetSearch = pagingSearch.extend({
  tab: param.oneOf(['LIST', 'MAP'], 'LIST'),
  f: param.text(),
  status: param.oneOf(['', ...NODE_STATUSES], ''),
  sort: param.oneOf(NODE_SORTS, 'id'),
  order: param.oneOf(SORT_ORDERS, 'asc'),
});

/** The list's columns: node, site label, status and last contact sort (`header` makes their buttons); times in the user's zone. */
function fleetColumns(header: (label: string, sort: (typeof NODE_SORTS)[number]) => ReactNode, userZone: string): Column<Node>[] {
  return [
    { key: 'id', header: header('Node', 'id'), render: (n) => n.id, width: 90 },
    { key: 'label', header: header('Site label', 'siteLabel'), render: (n) => n.siteLabel ?? '' },
    { key: 'address', header: 'Address', render: (n) => n.address.text },
    { key: 'nmi', header: 'NMI', render: (n) => n.network.nmi },
    { key: 'serial', header: 'Serial number', render: (n) => n.system.reposit.serialNumber },
    { key: 'inverter', header: 'Inverter', render: (n) => n.system.inverter.map((i) => i.brand).join(', ') },
    { key: 'battery', header: 'Battery', render: (n) => n.system.battery.map((b) => b.brand).join(', ') || 'None' },
    { key: 'status', header: header('Status', 'status'), render: (n) => <NodeStatusBadge node={n} timeZone={n.timezone} /> },
    {
      key: 'contact',
      header: header('Last contact', 'lastContact'),
      // In the user's zone, one zone down the column, so that the sorted times read in order.
      render: (n) => (n.status.ping.lastTimestamp ? formatDateTime(n.status.ping.lastTimestamp, userZone) : ''),
    },
  ];
}

/**
 * Fleet monitoring (/fleet-monitoring/nodes): the fleet as a list or a map; tab, f, limit, offset,
 * status and the list's sort (node, site label, status or last contact; issue 10 item 14) live in the URL.
 */
export function FleetMonitoringPage() {
  const navigate = useNavigate();
  const [{ tab, f, status, sort, order, limit, offset }, setQuery] = useSearchState(fleetSearch);
  const setPage = (l: number, o: number, replace?: boolean) => setQuery({ limit: l, offset: o }, { replace });
  const mapHeight = useMapHeight();
  // Searching waits 500 ms after the last key (spec 2 §4) and starts again at the first page.
  const [search, type] = useTypedSearch(f, (value) => setQuery({ f: value, offset: 0 }));

  // A search longer than any node's text (a link typed by hand) finds nothing: it is not sent.
  const searchable = f.length <= NODE_SEARCH_MAX;
  const list = useNodeList({ f: f || undefined, status: status || undefined, sort, order, limit, offset }, searchable);
  const map = useFleetMap({ f: f || undefined, status: status || undefined }, tab === 'MAP' && searchable);
  const listRows = searchable ? list.data?.deployments : [];
  const mapTiles = searchable ? map.data : undefined;
  const open = (id: number) => navigate(`/fleet-monitoring/nodes/${id}`);

  const userZone = useTimeZone();
  const columns = fleetColumns(
    sortHeaders(sort, order, (s, o) => setQuery({ sort: s, order: o, offset: 0 })),
    userZone,
  );

  return (
    <PageLayout
      title="Fleet Monitoring"
      permission="fleet.node.any"
      breadcrumb={[{ label: 'Fleet Monitoring' }, { label: 'Nodes' }]}
      actions={
        <Button
          variant="default"
          leftSection={tab === 'LIST' ? <IconMap size={16} /> : <IconList size={16} />}
          onClick={() => setQuery({ tab: tab === 'LIST' ? 'MAP' : 'LIST' })}
        >
          {tab === 'LIST' ? 'View Map' : 'View List'}
        </Button>
      }
      search={
        <Group align="end">
          <FleetSearchInput value={search} onChange={type} maxLength={NODE_SEARCH_MAX} error={searchable ? undefined : NODE_SEARCH_TOO_LONG} />
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            data={NODE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
            value={status || null}
            onChange={(v) => setQuery({ status: v, offset: 0 })}
            w={200}
          />
        </Group>
      }
    >
      {tab === 'LIST' ? (
        <DataTable
          label="Nodes"
          columns={columns}
          rows={listRows}
          rowKey={(n) => n.id}
          total={searchable ? (list.data?.total ?? 0) : 0}
          limit={limit}
          offset={offset}
          onPage={setPage}
          onRowClick={(n) => open(n.id)}
          empty="No nodes have been found for this search criteria"
          loading={searchable && list.isLoading}
        />
      ) : (
        <Stack gap="xs">
          {(map.data || !searchable) && (mapTiles?.total ?? 0) === 0 && <Text c="dimmed">No nodes have been found for this search criteria</Text>}
          <NodeMap tiles={mapTiles} onSelect={open} height={mapHeight} label="Fleet map" listedBy="the list view (View List)" />
        </Stack>
      )}
    </PageLayout>
  );
}
