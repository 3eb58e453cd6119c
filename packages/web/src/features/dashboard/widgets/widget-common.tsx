import { Box, Select } from '@mantine/core';
import { ALL_FLEET_NODES } from '@vpp/shared/constants';
import type { SingleStatMetric } from '@vpp/shared/dashboard/layout';
import type { ReactNode } from 'react';
import { useVppChoices } from '../api.ts';

/** The metrics' names as the widgets show them. */
export const METRIC_LABELS: Record<SingleStatMetric, string> = {
  commissioned: 'Commissioned',
  non_commissioned: 'Not Commissioned',
  offline: 'Offline',
  solarPower: 'Solar Power',
  meterPower: 'Meter Power',
  remainingCharge: 'Remaining Charge',
};
/** The Data Graph's choice for the whole fleet. */
export const ALL_FLEET_LABEL = 'All fleet nodes';
export const CHOOSE_VPP = 'Choose a Virtual Power Plant in this widget’s settings.';

export function useVppName(id: number | null | string): string | undefined {
  const vpps = useVppChoices();
  if (id === null || typeof id === 'string') return undefined;
  return vpps.data?.find((v) => v.id === id)?.name ?? `Virtual Power Plant ${id}`;
}

export function VppSelect(props: { value: number | string | null; onChange: (v: number | string | null) => void; withFleet?: boolean }) {
  const vpps = useVppChoices();
  const data = [
    ...(props.withFleet ? [{ value: ALL_FLEET_NODES, label: ALL_FLEET_LABEL }] : []),
    ...(vpps.data ?? []).map((v) => ({ value: String(v.id), label: v.name })),
  ];
  return (
    <Select
      label="Virtual Power Plant"
      placeholder={vpps.isLoading ? 'Loading...' : 'Choose a Virtual Power Plant'}
      data={data}
      value={props.value === null ? null : String(props.value)}
      onChange={(v) => props.onChange(v === null ? null : v === ALL_FLEET_NODES ? ALL_FLEET_NODES : Number(v))}
      searchable
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
    />
  );
}

/** Over a map while its data loads or after its call failed: the map itself is made at once, so that MapLibre starts while the data is on its way. */
export function MapOverlay(props: { children: ReactNode }) {
  return (
    <Box pos="absolute" inset={0} bg="var(--mantine-color-body)" style={{ zIndex: 2 }}>
      {props.children}
    </Box>
  );
}
