import { Alert, Button, Group, Modal, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { Node } from '@vpp/shared/nodes/schemas';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { useState } from 'react';
import { type Column, DataTable, pagingSearch } from '../../components/data-table.tsx';
import { ApiError } from '../../lib/request.ts';
import { param, useSearchState } from '../../lib/search-state.ts';
import { usePatchPowerstation, usePowerstationNodes } from './api.ts';
import { nodeColumns } from './vpp-node-columns.tsx';

const inclusionSearch = pagingSearch.extend({ f: param.text(), address_filter: param.text(), show_included_only: param.bool(false) });

/**
 * Which fleet nodes a manual VPP holds: search (f), address filter and 'show included only' live in
 * the URL; each toggle saves at once, and the bulk buttons add or remove every node matching the filter.
 */
export function NodeInclusion({ id, linkNodes }: { id: number; linkNodes: boolean }) {
  const [{ f, address_filter: addressFilter, show_included_only: includedOnly, limit, offset }, set] = useSearchState(inclusionSearch);
  const [search, setSearch] = useState(f);
  const [address, setAddress] = useState(addressFilter);
  const [bulkError, setBulkError] = useState<string | null>(null);
  // Typing waits 500 ms, as the fleet search does, then starts again at the first page.
  const applySearch = useDebouncedCallback(
    (next: { f: string; address: string }) => set({ f: next.f.trim(), address_filter: next.address.trim(), offset: 0 }, { replace: true }),
    500,
  );
  const nodes = usePowerstationNodes(id, {
    f: f || undefined,
    address_filter: addressFilter || undefined,
    include_unused_deployments: includedOnly ? undefined : true,
    limit,
    offset,
  });
  const patch = usePatchPowerstation(id);
  // Including every matching node asks first, with how many that is (the whole fleet when unfiltered).
  const [confirming, setConfirming] = useState(false);
  const matching = usePowerstationNodes(
    id,
    { f: f || undefined, address_filter: addressFilter || undefined, include_unused_deployments: true, limit: 10, offset: 0 },
    confirming,
  );
  const [pending, setPending] = useState<number | null>(null);

  const toggle = (node: Node, include: boolean) => {
    setPending(node.id);
    patch.mutate({ body: { nodes: { method: include ? 'add' : 'remove', list: [node.id] } } }, { onSettled: () => setPending(null) });
  };
  const bulk = (method: 'add' | 'remove') => {
    setBulkError(null);
    patch.mutate(
      { body: { nodes: { method, filter: { f: f || undefined, address_filter: addressFilter || undefined } } }, bulk: true },
      { onError: (err) => setBulkError(err instanceof ApiError ? err.message : VPP_MESSAGES.updateFailed) },
    );
  };

  const columns: Column<Node>[] = [
    {
      key: 'included',
      header: 'Included',
      width: 90,
      render: (n) => (
        <Switch aria-label={`Include node ${n.id}`} checked={!!n.included} disabled={pending === n.id} onChange={(e) => toggle(n, e.currentTarget.checked)} />
      ),
    },
    ...nodeColumns(linkNodes),
  ];
  const filtered = !!(f || addressFilter);

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Nodes
      </Title>
      <Group align="end">
        <TextInput
          label="Search"
          placeholder="Site label, address, NMI, serial number, inverter or battery"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            applySearch({ f: e.currentTarget.value, address });
          }}
          w={480}
          maw="100%"
        />
        <TextInput
          label="Address filter"
          placeholder="Street, suburb, state or postcode"
          value={address}
          onChange={(e) => {
            setAddress(e.currentTarget.value);
            applySearch({ f: search, address: e.currentTarget.value });
          }}
          w={260}
          maw="100%"
        />
        <Switch
          label="Show included only"
          checked={includedOnly}
          onChange={(e) => set({ show_included_only: e.currentTarget.checked ? true : null, offset: 0 })}
          mb={8}
        />
      </Group>
      <Group gap="xs">
        <Button
          variant="light"
          size="xs"
          onClick={() => setConfirming(true)}
          loading={patch.isPending && patch.variables?.bulk && patch.variables.body.nodes?.method === 'add'}
        >
          Include all matching
        </Button>
        <Button
          variant="light"
          color="red"
          size="xs"
          onClick={() => bulk('remove')}
          loading={patch.isPending && patch.variables?.bulk && patch.variables.body.nodes?.method === 'remove'}
        >
          Exclude all matching
        </Button>
        <Text size="xs" c="dimmed">
          {filtered ? 'Every node of the fleet matching the search and address filter.' : 'Every node of the fleet.'}
        </Text>
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Include all matching">
        <Text>
          {matching.data
            ? `Include all ${matching.data.total} ${matching.data.total === 1 ? 'node' : 'nodes'} ${filtered ? 'of the fleet matching the search and address filter' : 'of the fleet'} in this Virtual Power Plant?`
            : 'Counting the matching nodes…'}
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Back
          </Button>
          <Button
            disabled={!matching.data}
            onClick={() => {
              setConfirming(false);
              bulk('add');
            }}
          >
            Include all
          </Button>
        </Group>
      </Modal>
      {bulkError && (
        <Alert color="red" title={VPP_MESSAGES.updateFailed} withCloseButton onClose={() => setBulkError(null)}>
          {bulkError}
        </Alert>
      )}
      <DataTable
        label="Nodes"
        columns={columns}
        rows={nodes.data?.deployments}
        rowKey={(n) => n.id}
        total={nodes.data?.total ?? 0}
        limit={limit}
        offset={offset}
        onPage={(l, o, replace) => set({ limit: l, offset: o }, { replace })}
        empty={filtered ? VPP_MESSAGES.noNodesForFilter : includedOnly ? VPP_MESSAGES.noNodes : 'No nodes have been found for this search criteria'}
        loading={nodes.isLoading}
      />
    </Stack>
  );
}
