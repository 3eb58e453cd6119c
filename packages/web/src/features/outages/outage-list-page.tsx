import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { formatDuration } from '@vpp/shared/format';
import { OUTAGE_MESSAGES } from '@vpp/shared/outages/messages';
import { OUTAGE_EDIT, OUTAGE_VIEW } from '@vpp/shared/outages/permissions';
import type { GridOutage } from '@vpp/shared/outages/schemas';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { DispatchStatusBadge, formatDispatchStart } from '../events/index.ts';
import { useOutages } from './api.ts';
import { NewOutageModal } from './new-outage-modal.tsx';
import { outagePath, sortOutages } from './outage-format.ts';

function columns(zone: string, nowS: number): Column<GridOutage>[] {
  return [
    {
      key: 'event',
      header: 'Event',
      render: (o) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {o.reason || OUTAGE_MESSAGES.unknownTitle}
          </Text>
          <Text size="xs" c="dimmed">
            {o.powerstation?.name ?? '–'}
          </Text>
        </Stack>
      ),
    },
    { key: 'start', header: 'Start', render: (o) => formatDispatchStart(o.request.startTime, zone, nowS) },
    { key: 'duration', header: 'Duration', render: (o) => formatDuration(o.request.duration) },
    { key: 'status', header: 'Status', render: (o) => <DispatchStatusBadge dispatch={o} /> },
  ];
}

/** Grid outage list (/virtual-power-plants/grid-outages, spec 3 §2.6): latest start first, reloaded every 5 minutes. */
export function OutageListPage() {
  const outages = useOutages();
  const zone = useTimeZone();
  const navigate = useNavigate();
  const canEdit = usePermission(OUTAGE_EDIT);
  const [creating, setCreating] = useState(false);
  const [page, setPage] = useState({ limit: 10, offset: 0 });
  const nowS = (outages.dataUpdatedAt || Date.now()) / 1000;
  const all = outages.data ? sortOutages(outages.data.data.outages) : undefined;

  return (
    <PageLayout
      title="Grid Outages"
      permission={OUTAGE_VIEW}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: 'Grid Outages' }]}
      actions={
        canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New Grid Outage
          </Button>
        )
      }
    >
      <DataTable
        label="Grid Outages"
        columns={columns(zone, nowS)}
        rows={all?.slice(page.offset, page.offset + page.limit)}
        rowKey={(o) => o.id}
        total={all?.length ?? 0}
        limit={page.limit}
        offset={page.offset}
        onPage={(limit, offset) => setPage({ limit, offset })}
        onRowClick={(o) => navigate(outagePath(o.id))}
        empty={OUTAGE_MESSAGES.empty}
        loading={outages.isLoading}
      />
      <Text size="sm" c="dimmed">
        All times are in{' '}
        <Anchor component={Link} to="/user/settings" size="sm" title="Change your time zone in settings">
          {zone}
        </Anchor>
      </Text>
      {canEdit && <NewOutageModal opened={creating} onClose={() => setCreating(false)} />}
    </PageLayout>
  );
}
