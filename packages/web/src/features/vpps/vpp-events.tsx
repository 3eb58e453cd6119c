import { Badge, Center, Loader, Table, Text, Title } from '@mantine/core';
import { formatDateTime, formatDuration, VPP_MESSAGES, type VppEvent } from '@vpp/shared';
import { useAccount } from '../../lib/account.ts';
import { usePowerstationEvents } from './api.ts';

const STATE_LABELS: Record<VppEvent['state'], string> = { UPCOMING: 'Upcoming', INPROGRESS: 'In Progress', COMPLETED: 'Completed' };
const TYPE_LABELS: Record<string, string> = { DISPATCH: 'Dispatch', CURTAILMENT: 'Curtailment', GRID_OUTAGE: 'Grid Outage', RERT: 'RERT' };

/** Upcoming and in-progress events on a VPP, in the account's time zone, or the spec's empty text. */
export function VppEvents({ id }: { id: number }) {
  const events = usePowerstationEvents(id);
  const { data: account } = useAccount();
  const zone = account?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
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
        <Table striped aria-label="Upcoming and in-progress events">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>Start</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th>State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.data.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td>{TYPE_LABELS[e.type] ?? e.type}</Table.Td>
                <Table.Td>{formatDateTime(e.startTime, zone)}</Table.Td>
                <Table.Td>{formatDuration(e.duration)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={e.state === 'INPROGRESS' ? 'green' : 'blue'} tt="none">
                    {STATE_LABELS[e.state]}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">{events.isError ? '' : VPP_MESSAGES.noEvents}</Text>
      )}
    </section>
  );
}
