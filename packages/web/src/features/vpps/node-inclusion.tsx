import { Alert, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import type { Node } from '@vpp/shared/nodes/schemas';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { useState } from 'react';
import { type Column, DataTable, pagingSearch } from '../../components/data-table.tsx';
import { ApiError } from '../../lib/request.ts';
import { param, useSearchState } from '../../lib/search-state.ts';
import { usePatchPowerstation, usePowerstationNodes } from './api.ts';
import { BulkInclusionButtons, IncludeAllConfirm, NodeInclusionFilters } from './node-inclusion-controls.tsx';
import { nodeColumns } from './vpp-node-columns.tsx';

const inclusionSearch = pagingSearch.extend({ f: param.text(), address_filter: param.text(), show_included_only: param.bool(false) });

/**
 * Which fleet nodes a manual VPP holds: search (f), address filter and 'show included only' live in
 * the URL; each toggle saves at once, and the bulk buttons add or remove every node matching the filter.
 */
export function NodeInclusion({ id, linkNodes }: { id: number; linkNodes: boolean }) {
  const [{ f, address_filter: addressFilter, show_included_only: includedOnly, limit, offset }, set] = useSearchState(inclusionSearch);
  const [bulkError, setBulkError] = useState<string | null>(null);
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
      <NodeInclusionFilters
        f={f}
        addressFilter={addressFilter}
        includedOnly={includedOnly}
        // A new search starts again at the first page.
        onSearch={(next) => set({ f: next.f, address_filter: next.address, offset: 0 }, { replace: true })}
        onIncludedOnly={(checked) => set({ show_included_only: checked ? true : null, offset: 0 })}
      />
      <BulkInclusionButtons
        filtered={filtered}
        saving={patch.isPending && patch.variables?.bulk ? patch.variables.body.nodes?.method : undefined}
        onInclude={() => setConfirming(true)}
        onExclude={() => bulk('remove')}
      />
      <IncludeAllConfirm
        id={id}
        filter={{ f, addressFilter }}
        opened={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          bulk('add');
        }}
      />
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
