import { Button, Group, Modal, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { FLEET_SEARCH_DEBOUNCE_MS, FleetSearchInput } from '../../components/fleet-search.tsx';
import { usePowerstationNodes } from './api.ts';

/** The search, the address filter and 'Show included only' of the node inclusion table (in the URL). */
export function NodeInclusionFilters({
  f,
  addressFilter,
  includedOnly,
  onSearch,
  onIncludedOnly,
}: {
  f: string;
  addressFilter: string;
  includedOnly: boolean;
  /** The search and the address filter, trimmed, once typing has paused. */
  onSearch: (next: { f: string; address: string }) => void;
  onIncludedOnly: (checked: boolean) => void;
}) {
  const [search, setSearch] = useState(f);
  const [address, setAddress] = useState(addressFilter);
  // Typing waits as the fleet search does.
  const applySearch = useDebouncedCallback(
    (next: { f: string; address: string }) => onSearch({ f: next.f.trim(), address: next.address.trim() }),
    FLEET_SEARCH_DEBOUNCE_MS,
  );
  return (
    <Group align="end">
      <FleetSearchInput
        value={search}
        onChange={(value) => {
          setSearch(value);
          applySearch({ f: value, address });
        }}
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
      <Switch label="Show included only" checked={includedOnly} onChange={(e) => onIncludedOnly(e.currentTarget.checked)} mb={8} />
    </Group>
  );
}

/** The bulk buttons: every node of the fleet matching the filters in or out ('add' or 'remove' while it saves). */
export function BulkInclusionButtons({
  filtered,
  saving,
  onInclude,
  onExclude,
}: {
  filtered: boolean;
  saving: 'add' | 'remove' | undefined;
  onInclude: () => void;
  onExclude: () => void;
}) {
  return (
    <Group gap="xs">
      <Button variant="light" size="xs" onClick={onInclude} loading={saving === 'add'}>
        Include all matching
      </Button>
      <Button variant="light" color="red" size="xs" onClick={onExclude} loading={saving === 'remove'}>
        Exclude all matching
      </Button>
      <Text size="xs" c="dimmed">
        {filtered ? 'Every node of the fleet matching the search and address filter.' : 'Every node of the fleet.'}
      </Text>
    </Group>
  );
}

/** Including every matching node asks first, with how many that is (the whole fleet when unfiltered). */
export function IncludeAllConfirm({
  id,
  filter,
  opened,
  onClose,
  onConfirm,
}: {
  id: number;
  filter: { f: string; addressFilter: string };
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { f, addressFilter } = filter;
  const matching = usePowerstationNodes(
    id,
    { f: f || undefined, address_filter: addressFilter || undefined, include_unused_deployments: true, limit: 10, offset: 0 },
    opened,
  );
  const filtered = !!(f || addressFilter);
  return (
    <Modal opened={opened} onClose={onClose} title="Include all matching">
      <Text>
        {matching.data
          ? `Include all ${matching.data.total} ${matching.data.total === 1 ? 'node' : 'nodes'} ${filtered ? 'of the fleet matching the search and address filter' : 'of the fleet'} in this Virtual Power Plant?`
          : 'Counting the matching nodes…'}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Back
        </Button>
        <Button disabled={!matching.data} onClick={onConfirm}>
          Include all
        </Button>
      </Group>
    </Modal>
  );
}
