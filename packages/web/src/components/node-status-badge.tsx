import { Badge } from '@mantine/core';
import { formatDateTime } from '@vpp/shared/format';
import type { Node } from '@vpp/shared/nodes/schemas';

/** Theme colours, so the badge's text is darkened to read at AA on its tint (the map's hex colours are for markers). */
const BADGE_COLOURS: Record<Node['displayStatus'], string> = { ONLINE: 'green', OFFLINE: 'red', AWAITING_CONTACT: 'orange', NOT_COMMISSIONED: 'gray' };

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
    // Shown whole: a long status ('Offline since 21/11/2026 14:05') wraps rather than being cut off.
    <Badge color={BADGE_COLOURS[s]} variant="light" tt="none" h="auto" maw="100%" styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}>
      {label}
    </Badge>
  );
}
