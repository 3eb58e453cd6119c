import { Anchor, Button, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { DEFAULT_PAGE_SIZE } from '@vpp/shared/constants';
import { formatEnergy, formatPower } from '@vpp/shared/format';
import { NODE_VIEW, VPP_EDIT, VPP_VIEW } from '@vpp/shared/vpps/permissions';
import { enrolmentOf, storedVppKind, VPP_KIND_LABELS } from '@vpp/shared/vpps/rules';
import type { Powerstation } from '@vpp/shared/vpps/schemas';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable, usePaging } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { PermissionGate, usePermission } from '../../lib/permission-gate.tsx';
import { usePowerstations } from './api.ts';
import { UnassignedNodes } from './unassigned-nodes.tsx';
import { vppFilterText } from './vpp-nameplate.tsx';
import { vppMapPath } from './vpp-paths.ts';

const kindOf = (p: Powerstation) => storedVppKind({ type: p.type, state: p.filters.state });

const nameplateColumns: Column<Powerstation>[] = [
  { key: 'nodes', header: 'Nodes', render: (p) => p.nodes },
  { key: 'capacity', header: 'Battery capacity', render: (p) => formatEnergy(p.namePlate.batteryCapacity) },
  { key: 'battery', header: 'Battery power', render: (p) => formatPower(p.namePlate.batteryPower) },
  { key: 'inverter', header: 'Inverter power', render: (p) => formatPower(p.namePlate.inverterPower) },
];

const nameColumn: Column<Powerstation> = {
  key: 'name',
  header: 'Name',
  render: (p) => (
    <Anchor component={Link} to={vppMapPath(p.id)} onClick={(e) => e.stopPropagation()}>
      {p.name}
    </Anchor>
  ),
};

/** VPP list (/virtual-power-plants/manage): manual and automatic VPPs paged in the URL, the unassigned-node warning, FCAS VPPs below. */
export function VppListPage() {
  const navigate = useNavigate();
  const { limit, offset, setPage } = usePaging();
  const [fcasPage, setFcasPage] = useState({ limit: DEFAULT_PAGE_SIZE, offset: 0 });
  const main = usePowerstations({ limit, offset, type: ['STATIC', 'DYNAMIC'] });
  const fcas = usePowerstations({ ...fcasPage, type: ['FCAS'] });
  const linkNodes = usePermission(NODE_VIEW);

  const columns: Column<Powerstation>[] = [
    nameColumn,
    { key: 'type', header: 'Type', render: (p) => VPP_KIND_LABELS[kindOf(p)] },
    { key: 'rule', header: 'Filter', render: vppFilterText },
    { key: 'enrolment', header: 'Enrolment', render: (p) => enrolmentOf(kindOf(p)) },
    ...nameplateColumns,
  ];
  const fcasColumns: Column<Powerstation>[] = [nameColumn, { key: 'duid', header: 'DUID', render: (p) => p.duid ?? '' }, ...nameplateColumns];

  return (
    <PageLayout
      title="Virtual Power Plants"
      permission={VPP_VIEW}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: 'Build and Edit' }]}
      actions={
        <PermissionGate require={VPP_EDIT}>
          <Button component={Link} to="/virtual-power-plants/manage/new" leftSection={<IconPlus size={16} />}>
            New VPP
          </Button>
        </PermissionGate>
      }
    >
      <UnassignedNodes linkNodes={linkNodes} />
      <DataTable
        label="Virtual Power Plants"
        columns={columns}
        rows={main.data?.result}
        rowKey={(p) => p.id}
        total={main.data?.total ?? 0}
        limit={limit}
        offset={offset}
        onPage={setPage}
        onRowClick={(p) => navigate(vppMapPath(p.id))}
        empty="There are no Virtual Power Plants yet."
        loading={main.isLoading}
      />
      <Stack gap="xs" mt="lg">
        <Title order={2} size="h3">
          FCAS Virtual Power Plants
        </Title>
        <DataTable
          label="FCAS Virtual Power Plants"
          columns={fcasColumns}
          rows={fcas.data?.result}
          rowKey={(p) => p.id}
          total={fcas.data?.total ?? 0}
          limit={fcasPage.limit}
          offset={fcasPage.offset}
          onPage={(l, o) => setFcasPage({ limit: l, offset: o })}
          onRowClick={(p) => navigate(vppMapPath(p.id))}
          empty="There are no FCAS Virtual Power Plants."
          loading={fcas.isLoading}
        />
      </Stack>
    </PageLayout>
  );
}
