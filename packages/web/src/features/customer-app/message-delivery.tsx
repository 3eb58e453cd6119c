import { Anchor, Group, Pagination, Paper, Table, Text, Title } from '@mantine/core';
import type { MessageReceipts } from '@vpp/shared/customer-app/schemas';
import { formatDateTime } from '@vpp/shared/format';
import { useState } from 'react';
import { Link } from 'react-router';
import { useMessageReceipts } from './api.ts';

const PAGE = 10;
const TITLE = 'Customer Message Delivery';
const when = (t: number | null, zone: string) => (t === null ? '–' : formatDateTime(t, zone));

/** The sentence above the table: to how many homes' apps the message went, and what their customers did. */
export function deliverySummary(s: MessageReceipts['summary']): string {
  if (s.sent === 0) return 'No customer message has been sent yet.';
  return `Sent to ${s.sent} ${s.sent === 1 ? 'node' : 'nodes'}: ${s.delivered} delivered to the customer app, ${s.read} read, ${s.optedOut} opted out.`;
}

/**
 * Each node's copy of an event's customer message (issue 34 item 12): when it was sent, delivered to
 * the home's app and read, and when the customer opted out, ten nodes a page.
 */
export function MessageDelivery({ eventId, zone }: { eventId: number; zone: string }) {
  const [page, setPage] = useState(1);
  const q = useMessageReceipts(eventId, { limit: PAGE, offset: (page - 1) * PAGE });
  const data = q.data?.data;
  return (
    <Paper withBorder p="md" component="section" aria-label={TITLE}>
      <Title order={2} size="h4" mb="sm">
        {TITLE}
      </Title>
      {!data ? (
        <Text c="dimmed" size="sm">
          {q.isError ? 'The delivery could not be loaded.' : 'Loading…'}
        </Text>
      ) : (
        <>
          <Text size="sm">{deliverySummary(data.summary)}</Text>
          {data.receipts.length > 0 && (
            <Table.ScrollContainer minWidth={640}>
              <Table aria-label="Message delivery by node" mt="sm" style={{ whiteSpace: 'nowrap' }}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Node</Table.Th>
                    <Table.Th>NMI</Table.Th>
                    <Table.Th>Sent</Table.Th>
                    <Table.Th>Delivered</Table.Th>
                    <Table.Th>Read</Table.Th>
                    <Table.Th>Opted out</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.receipts.map((r) => (
                    <Table.Tr key={r.deployment_uid}>
                      <Table.Td>
                        <Anchor component={Link} to={`/fleet-monitoring/nodes/${r.deployment_uid}`} size="sm">
                          {r.deployment_uid}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{r.nmi}</Table.Td>
                      <Table.Td>{when(r.sentAt, zone)}</Table.Td>
                      <Table.Td>{when(r.deliveredAt, zone)}</Table.Td>
                      <Table.Td>{when(r.readAt, zone)}</Table.Td>
                      <Table.Td>{when(r.optedOutAt, zone)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {data.total > PAGE && (
            <Group justify="flex-end" mt="sm">
              <Pagination total={Math.ceil(data.total / PAGE)} value={page} onChange={setPage} size="sm" aria-label="Message delivery pages" />
            </Group>
          )}
        </>
      )}
    </Paper>
  );
}
