import { Anchor, Badge, Center, Loader, Text, Title } from '@mantine/core';
import { CURTAILMENT_VIEW } from '@vpp/shared/curtailments/permissions';
import { DISPATCH_VIEW } from '@vpp/shared/dispatches/permissions';
import type { VppEvent } from '@vpp/shared/events/schemas';
import { formatDateTime, formatDuration } from '@vpp/shared/format';
import { OUTAGE_VIEW } from '@vpp/shared/outages/permissions';
import { RERT_VIEW } from '@vpp/shared/rert/permissions';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { Link } from 'react-router';
import type { Column } from '../../components/data-table.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { useAccount } from '../../lib/account.ts';
import { usePermission } from '../../lib/permission-gate.tsx';
import { usePowerstationEvents } from './api.ts';

const STATE_LABELS: Record<VppEvent['state'], string> = { UPCOMING: 'Upcoming', INPROGRESS: 'In Progress', COMPLETED: 'Completed' };
const TYPE_LABELS: Record<string, string> = { DISPATCH: 'Dispatch', CURTAILMENT: 'Curtailment', GRID_OUTAGE: 'Grid Outage', RERT: 'RERT' };

/** Where each kind of event has its detail page (an event's id is the same on every kind's calls). */
const DETAIL_PATHS: Record<string, string> = {
  DISPATCH: '/virtual-power-plants/dispatches',
  RERT: '/virtual-power-plants/rert-dispatches',
  GRID_OUTAGE: '/virtual-power-plants/grid-outages',
  CURTAILMENT: '/virtual-power-plants/feed-in-management',
};

const columns = (zone: string, may: Record<string, boolean>): Column<VppEvent>[] => [
  {
    key: 'event',
    header: 'Event',
    render: (e) =>
      DETAIL_PATHS[e.type] && may[e.type] ? (
        <Anchor component={Link} to={`${DETAIL_PATHS[e.type]}/${e.id}`} size="sm">
          {TYPE_LABELS[e.type]}
        </Anchor>
      ) : (
        (TYPE_LABELS[e.type] ?? e.type)
      ),
  },
  { key: 'start', header: 'Start', render: (e) => formatDateTime(e.startTime, zone) },
  { key: 'duration', header: 'Duration', render: (e) => formatDuration(e.duration) },
  {
    key: 'state',
    header: 'State',
    render: (e) => (
      <Badge variant="light" color={e.state === 'INPROGRESS' ? 'green' : 'blue'} tt="none">
        {STATE_LABELS[e.state]}
      </Badge>
    ),
  },
];

/** Upcoming and in-progress events on a VPP, in the account's time zone, or the spec's empty text; each links to its detail for those who may see it. */
export function VppEvents({ id }: { id: number }) {
  const events = usePowerstationEvents(id);
  const { data: account } = useAccount();
  const zone = account?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const may: Record<string, boolean> = {
    DISPATCH: usePermission(DISPATCH_VIEW),
    RERT: usePermission(RERT_VIEW),
    GRID_OUTAGE: usePermission(OUTAGE_VIEW),
    CURTAILMENT: usePermission(CURTAILMENT_VIEW),
  };
  return (
    <section aria-label="Events">
      <Title order={2} size="h4" mb="xs">
        Upcoming and In Progress Events
      </Title>
      {events.isLoading ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading events" />
        </Center>
      ) : events.data?.length ? (
        <ListTable label="Upcoming and in-progress events" columns={columns(zone, may)} rows={events.data} rowKey={(e) => e.id} minWidth={520} striped />
      ) : (
        <Text c="dimmed">{events.isError ? '' : VPP_MESSAGES.noEvents}</Text>
      )}
    </section>
  );
}
