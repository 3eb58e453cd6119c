import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { DispatchSummary } from '@vpp/shared/dispatches/schemas';
import { formatDuration, formatPower } from '@vpp/shared/format';
import type { PermissionRequirement } from '@vpp/shared/permissions/registry';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable, usePaging } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useTimeZone } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { eventLabel, formatDispatchStart, requestKind } from './event-format.ts';
import { DispatchStatusBadge } from './event-status-badge.tsx';

function columns(zone: string, nowS: number, numbered: boolean): Column<DispatchSummary>[] {
  return [
    {
      key: 'event',
      header: 'Event',
      render: (d) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {eventLabel(d)}
            {numbered && ` ${d.id}`}
          </Text>
          <Text size="xs" c="dimmed">
            {d.powerstation.name}
          </Text>
        </Stack>
      ),
    },
    { key: 'start', header: 'Start', render: (d) => formatDispatchStart(d.request.startTime, zone, nowS) },
    { key: 'duration', header: 'Duration', render: (d) => formatDuration(d.request.duration) },
    {
      key: 'request',
      header: 'Request',
      render: (d) => (
        <Stack gap={0}>
          <Text size="sm">{formatPower(d.request.realPowerP)}</Text>
          <Text size="xs" c="dimmed">
            {requestKind(d.request.realPowerP)}
          </Text>
        </Stack>
      ),
    },
    { key: 'status', header: 'Status', render: (d) => <DispatchStatusBadge dispatch={d} /> },
  ];
}

/** What a kind of dispatch event (a dispatch, a RERT dispatch) gives its list page. */
export interface EventListConfig {
  title: string;
  viewPermission: PermissionRequirement;
  editPermission: PermissionRequirement;
  newLabel: string;
  /** The page of events (limit, offset from the URL), from the kind's list call. */
  useList: (q: { limit: number; offset: number }) => UseQueryResult<{ data: { dispatches: DispatchSummary[]; total: number } }>;
  path: (id: number) => string;
  empty: string;
  /** The event's id beside its label in the Event column. */
  numbered?: boolean;
  newModal: (props: { opened: boolean; onClose: () => void }) => ReactNode;
}

/** A list of dispatch events (spec 3 §2.2, §2.5): latest start first, refreshed every 5 minutes, paged from the URL. */
export function EventListView({ config: c }: { config: EventListConfig }) {
  const { limit, offset, setPage } = usePaging();
  const list = c.useList({ limit, offset });
  const zone = useTimeZone();
  const navigate = useNavigate();
  const canEdit = usePermission(c.editPermission);
  const [creating, setCreating] = useState(false);
  const nowS = (list.dataUpdatedAt || Date.now()) / 1000;

  return (
    <PageLayout
      title={c.title}
      permission={c.viewPermission}
      breadcrumb={[{ label: 'Virtual Power Plants' }, { label: c.title }]}
      actions={
        canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {c.newLabel}
          </Button>
        )
      }
    >
      <DataTable
        label={c.title}
        columns={columns(zone, nowS, c.numbered ?? false)}
        rows={list.data?.data.dispatches}
        rowKey={(d) => d.id}
        total={list.data?.data.total ?? 0}
        limit={limit}
        offset={offset}
        onPage={setPage}
        onRowClick={(d) => navigate(c.path(d.id))}
        empty={c.empty}
        loading={list.isLoading}
      />
      <Text size="sm" c="dimmed">
        All times are in{' '}
        <Anchor component={Link} to="/user/settings" size="sm" title="Change your time zone in settings">
          {zone}
        </Anchor>
      </Text>
      {canEdit && c.newModal({ opened: creating, onClose: () => setCreating(false) })}
    </PageLayout>
  );
}
