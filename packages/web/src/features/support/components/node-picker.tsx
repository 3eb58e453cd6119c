import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Node } from '@vpp/shared/nodes/schemas';
import { useState } from 'react';
import { useNodeSearch } from '../api.ts';

/** How a node reads in the picker: its site, then what the help desk searches by. */
export const nodeOptionLabel = (n: Pick<Node, 'id' | 'siteLabel' | 'address' | 'network' | 'system'>) =>
  `${n.siteLabel || n.address.text} · NMI ${n.network.nmi} · ${n.system.reposit.serialNumber}`;

/**
 * An optional node of the fleet, found by the same search as fleet monitoring (address, NMI, serial,
 * brand, site label) and ten at a time; the chosen node stays listed while another search runs.
 */
export function NodePicker(props: { value: number | null; onChange: (id: number | null) => void; error?: string }) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  // The search box shows the chosen node's label: that is not a search to send.
  const typed = chosen && search === chosen.label ? '' : search;
  const [f] = useDebouncedValue(typed.trim(), 250);
  const nodes = useNodeSearch(f, true);
  const found = (nodes.data ?? []).map((n) => ({ value: String(n.id), label: nodeOptionLabel(n) }));
  const data = chosen && !found.some((o) => o.value === chosen.value) ? [chosen, ...found] : found;
  return (
    <Select
      label="Node"
      description="Optional: the node the request is about. Its id, NMI and serial number are sent with the request."
      placeholder="Search by address, NMI, serial number or site label"
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has searched already: show what it found as it is.
      filter={({ options }) => options}
      data={data}
      value={props.value === null ? null : String(props.value)}
      onChange={(value, option) => {
        setChosen(value ? { value, label: option?.label ?? value } : null);
        props.onChange(value ? Number(value) : null);
      }}
      nothingFoundMessage={nodes.isFetching ? 'Searching…' : 'No node matches this search.'}
      error={props.error}
    />
  );
}
