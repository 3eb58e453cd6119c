import { Anchor } from '@mantine/core';
import type { Node } from '@vpp/shared/nodes/schemas';
import { Link } from 'react-router';
import type { Column } from '../../components/data-table.tsx';
import { NodeStatusBadge } from '../../components/node-status-badge.tsx';

/** The columns VPP screens show for a node; the node number links to its page only when `linkNodes`. */
export function nodeColumns(linkNodes: boolean): Column<Node>[] {
  return [
    {
      key: 'id',
      header: 'Node',
      width: 80,
      render: (n) =>
        linkNodes ? (
          <Anchor component={Link} to={`/fleet-monitoring/nodes/${n.id}`} onClick={(e) => e.stopPropagation()}>
            {n.id}
          </Anchor>
        ) : (
          n.id
        ),
    },
    { key: 'label', header: 'Site label', render: (n) => n.siteLabel ?? '' },
    { key: 'address', header: 'Address', render: (n) => n.address.text },
    { key: 'serial', header: 'Serial number', render: (n) => n.system.reposit.serialNumber },
    { key: 'status', header: 'Status', render: (n) => <NodeStatusBadge node={n} timeZone={n.timezone} /> },
  ];
}
