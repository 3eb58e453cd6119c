import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

/** Spec 2 §4: the fleet's search waits 500 ms after the last key. */
export const FLEET_SEARCH_DEBOUNCE_MS = 500;

/** The fleet's search box (fleet monitoring, a VPP's nodes, its inclusion table): site label, address, NMI, serial number, inverter or battery. */
export function FleetSearchInput(props: { value: string; onChange: (value: string) => void; maxLength?: number; error?: string }) {
  return (
    <TextInput
      label="Search"
      placeholder="Site label, address, NMI, serial number, inverter or battery"
      leftSection={<IconSearch size={16} />}
      value={props.value}
      maxLength={props.maxLength}
      error={props.error}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      w={480}
      maw="100%"
    />
  );
}

/**
 * The text of a search box over an applied search (`applied`, the URL's): what is typed is applied,
 * trimmed, once typing has paused; the box follows the applied search when it changes from elsewhere
 * (the sidebar, Back), not while typing. Returns the box's text and its change handler.
 */
export function useTypedSearch(applied: string, apply: (value: string) => void): [string, (value: string) => void] {
  const [text, setText] = useState(applied);
  const [appliedOf, setAppliedOf] = useState(applied);
  if (appliedOf !== applied) {
    setAppliedOf(applied);
    if (text.trim() !== applied) setText(applied);
  }
  const applyLater = useDebouncedCallback((value: string) => apply(value.trim()), FLEET_SEARCH_DEBOUNCE_MS);
  return [
    text,
    (value: string) => {
      setText(value);
      applyLater(value);
    },
  ];
}
