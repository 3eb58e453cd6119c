import { Badge } from '@mantine/core';
import { formatDateTime, type Node } from '@vpp/shared';
import { STATUS_COLOURS } from './node-map-types.ts';

/** Display status of spec 2 §4: Online, Offline with the last contact date, Awaiting Contact, Not Commissioned. */
export function NodeStatusBadge({ node, timeZone }: { node: Pick<Node, 'displayStatus' | 'status'>; timeZone: string }) {
  const s = node.displayStatus;
  const label =
    s === 'ONLINE'
      ? 'Online'
      : s === 'OFFLINE'
        ? `Offline since ${formatDateTime(node.status.ping.lastTimestamp ?? 0, timeZone)}`
        : s === 'AWAITING_CONTACT'
          ? 'Awaiting Contact'
          : 'Not Commissioned';
  return (
    <Badge color={STATUS_COLOURS[s]} variant="light" tt="none">
      {label}
    </Badge>
  );
}
