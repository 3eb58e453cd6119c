import { Anchor, Paper, Text, Title } from '@mantine/core';
import type { MessageReceipts } from '@vpp/shared/customer-app/schemas';
import { formatDateTime } from '@vpp/shared/format';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Column } from '../../components/data-table.tsx';
import { ListPages, ListTable } from '../../components/list-table.tsx';
import { useMessageReceipts } from './api.ts';

const PAGE = 10;
const TITLE = 'Customer Message Delivery';
const when = (t: number | null, zone: string) => (t === null ? '–' : formatDateTime(t, zone));

/** The sentence above the table: to how many homes' apps the message went, and what their customers did. */
export function deliverySummary(s: MessageReceipts['summary']): string {
  if (s.sent === 0) return 'No customer message has been sent yet.';
  return `Sent to ${s.sent} ${s.sent === 1 ? 'node' : 'nodes'}: ${s.delivered} delivered to the customer app, ${s.read} read, ${s.optedOut} opted out.`;
}

type Receipt = MessageReceipts['receipts'][number];

const RECEIPT_COLUMNS = (zone: string): Column<Receipt>[] => [
  {
    key: 'node',
    header: 'Node',
    render: (r) => (
      <Anchor component={Link} to={`/fleet-monitoring/nodes/${r.deployment_uid}`} size="sm">
        {r.deployment_uid}
      </Anchor>
    ),
  },
  { key: 'nmi', header: 'NMI', render: (r) => r.nmi },
  { key: 'sent', header: 'Sent', render: (r) => when(r.sentAt, zone) },
  { key: 'delivered', header: 'Delivered', render: (r) => when(r.deliveredAt, zone) },
  { key: 'read', header: 'Read', render: (r) => when(r.readAt, zone) },
  { key: 'opted', header: 'Opted out', render: (r) => when(r.optedOutAt, zone) },
];

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
            <ListTable
              label="Message delivery by node"
              columns={RECEIPT_COLUMNS(zone)}
              rows={data.receipts}
              rowKey={(r) => r.deployment_uid}
              minWidth={640}
              table={{ mt: 'sm', style: { whiteSpace: 'nowrap' } }}
            />
          )}
          <ListPages total={data.total} pageSize={PAGE} page={page} onPage={setPage} label="Message delivery pages" />
        </>
      )}
    </Paper>
  );
}
