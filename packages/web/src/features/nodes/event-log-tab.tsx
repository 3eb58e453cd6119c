import { formatDateTime, formatDuration } from '@vpp/shared/format';
import { type NodeDetail, nodeEventLabel } from '@vpp/shared/nodes/schemas';
import { DataTable, usePaging } from '../../components/data-table.tsx';
import { useNodeEvents } from './api.ts';

/** The Event Log tab: the node's events, a page at a time (limit and offset in the URL). */
export function EventLogTab({ node }: { node: NodeDetail }) {
  const { limit, offset, setPage } = usePaging();
  const events = useNodeEvents(node.id, limit, offset);
  return (
    <DataTable
      label="Event log"
      columns={[
        { key: 'ts', header: 'Date/time', render: (e) => formatDateTime(e.ts, node.timezone) },
        {
          key: 'type',
          header: 'Event',
          render: (e) => nodeEventLabel(e.eventType),
        },
        { key: 'description', header: 'Description', render: (e) => e.description },
        { key: 'duration', header: 'Duration', render: (e) => formatDuration(e.duration) },
      ]}
      rows={events.data?.data}
      rowKey={(e) => `${e.eventType}-${e.id}`}
      total={events.data?.meta.total ?? 0}
      limit={limit}
      offset={offset}
      onPage={setPage}
      empty="There are no events for this node"
      loading={events.isLoading}
    />
  );
}
