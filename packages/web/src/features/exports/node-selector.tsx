import { ActionIcon, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconX } from '@tabler/icons-react';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { useState } from 'react';
import { useNodeSuggestions } from './api.ts';
import { type SelectedNode, suggestionLabel } from './operational-form.ts';

/** The fleet search's debounce (spec 2 §9). */
export const SUGGEST_DEBOUNCE_MS = 500;

/**
 * The node export's nodes (spec 2 §2): a search with suggestions (GET /v2/nodes?f&limit); choosing one
 * adds it to the selected list below, where each can be removed ('No nodes selected.' when none).
 */
export function NodeSelector(props: { nodes: SelectedNode[]; onAdd: (n: SelectedNode) => void; onRemove: (id: number) => void; error?: string }) {
  const [search, setSearch] = useState('');
  const [f] = useDebouncedValue(search.trim(), SUGGEST_DEBOUNCE_MS);
  const suggestions = useNodeSuggestions(f);
  const chosen = new Set(props.nodes.map((n) => n.id));
  const data = f === '' ? [] : (suggestions.data ?? []).map((n) => ({ value: String(n.id), label: suggestionLabel(n), disabled: chosen.has(n.id) }));
  return (
    <Stack gap={6}>
      <Select
        label="Nodes"
        placeholder="Search by address, NMI, serial number or site label"
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        // The server has searched already: show what it found as it is.
        filter={({ options }) => options}
        data={data}
        value={null}
        onChange={(value, option) => {
          if (!value) return;
          props.onAdd({ id: Number(value), label: option?.label ?? value });
          setSearch('');
        }}
        nothingFoundMessage={f === '' ? undefined : suggestions.isFetching ? 'Searching…' : 'No node matches this search.'}
        error={props.error}
        comboboxProps={{ withinPortal: true }}
      />
      <Paper withBorder p="xs" aria-label="Selected nodes" role="region">
        {props.nodes.length === 0 ? (
          <Text size="sm" c="dimmed">
            {M.noNodesSelected}
          </Text>
        ) : (
          <Stack gap={4}>
            {props.nodes.map((n) => (
              <Group key={n.id} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm">{n.label}</Text>
                <ActionIcon variant="subtle" color="gray" aria-label={`Remove node ${n.id}`} onClick={() => props.onRemove(n.id)}>
                  <IconX size={14} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
