import { Stack, Table } from '@mantine/core';
import type { NodeDetail } from '@vpp/shared';
import { useMemo } from 'react';
import { NodeMap, useMapHeight } from '../../components/node-map.tsx';

/** The Location tab: NMI, network and install address, and the node on the map. */
export function LocationTab({ node }: { node: NodeDetail }) {
  const height = useMapHeight();
  const { id, displayStatus, siteLabel } = node;
  const { lat, lng } = node.address;
  // The detail refetches every 10 s: the map gets a new point only when something it shows changes.
  const nodes = useMemo(() => [{ id, lat, lng, displayStatus, siteLabel }], [id, lat, lng, displayStatus, siteLabel]);
  return (
    <Stack gap="md">
      <Table w="fit-content" withRowBorders={false}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th>NMI</Table.Th>
            <Table.Td>{node.network.nmi}</Table.Td>
          </Table.Tr>
          {node.network.network !== null && (
            <Table.Tr>
              <Table.Th>Network</Table.Th>
              <Table.Td>{node.network.network}</Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Th>Install address</Table.Th>
            <Table.Td>{node.address.text}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <NodeMap nodes={nodes} zoom={13} height={height} label="Node location" />
    </Stack>
  );
}
