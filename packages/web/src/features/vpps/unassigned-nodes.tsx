import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { DEFAULT_PAGE_SIZE } from '@vpp/shared/constants';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { useState } from 'react';
import { DataTable } from '../../components/data-table.tsx';
import { useUnusedNodes } from './api.ts';
import { nodeColumns } from './vpp-node-columns.tsx';

/** The warning that N nodes are in no VPP, and its modal listing them page by page. */
export function UnassignedNodes({ linkNodes }: { linkNodes: boolean }) {
  const count = useUnusedNodes(1, 0);
  const [opened, setOpened] = useState(false);
  const [page, setPage] = useState({ limit: DEFAULT_PAGE_SIZE, offset: 0 });
  const list = useUnusedNodes(page.limit, page.offset, opened);
  const total = count.data?.total ?? 0;
  if (!total) return null;
  return (
    <>
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">{VPP_MESSAGES.unassigned(total)}</Text>
          <Button variant="subtle" size="compact-sm" onClick={() => setOpened(true)}>
            View unassigned nodes
          </Button>
        </Group>
      </Alert>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Unassigned nodes" size="xl">
        <DataTable
          label="Unassigned nodes"
          columns={nodeColumns(linkNodes)}
          rows={list.data?.deployments}
          rowKey={(n) => n.id}
          total={list.data?.total ?? 0}
          limit={page.limit}
          offset={page.offset}
          onPage={(limit, offset) => setPage({ limit, offset })}
          empty="Every node is assigned to a Virtual Power Plant."
          loading={list.isLoading}
        />
      </Modal>
    </>
  );
}
