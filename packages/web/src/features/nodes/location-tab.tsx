import { Box, Flex, Table } from '@mantine/core';
import type { NodeDetail } from '@vpp/shared/nodes/schemas';
import { useMemo } from 'react';
import { NodeMap, useMapHeight } from '../../components/node-map.tsx';
import { coordinates } from '../../components/node-map-types.ts';

/** The Location tab: NMI, network, install address and coordinates beside the node on the map. */
export function LocationTab({ node }: { node: NodeDetail }) {
  const height = useMapHeight();
  const { id, displayStatus, siteLabel } = node;
  const { lat, lng, text: address } = node.address;
  // The detail refetches every 10 s: the map gets a new point only when something it shows changes.
  const nodes = useMemo(() => [{ id, lat, lng, displayStatus, siteLabel, address }], [id, lat, lng, displayStatus, siteLabel, address]);
  return (
    <Flex gap="md" direction={{ base: 'column', md: 'row' }} align="flex-start">
      <Table w={{ base: '100%', md: 320 }} style={{ flex: 'none' }} withRowBorders={false}>
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
            <Table.Td>{address}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Coordinates</Table.Th>
            <Table.Td>{coordinates(lat, lng)}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Box flex={1} w="100%" miw={0}>
        <NodeMap nodes={nodes} zoom={13} height={height} label="Node location" />
      </Box>
    </Flex>
  );
}
