import { Center } from '@mantine/core';
import type { Widget } from '@vpp/shared/dashboard/layout';
import { VoltageMap } from '../voltage-map.tsx';
import { CHOOSE_VPP, VppSelect } from './widget-common.tsx';

type Settings = Extract<Widget, { widgetId: 'VOLTAGE_HEAT_MAP' }>['settings'];

/** The Voltage Heat Map's settings: its VPP. */
export function HeatMapSettings(props: { settings: Settings; onChange: (s: Settings) => void }) {
  return <VppSelect value={props.settings.powerstation} onChange={(v) => props.onChange({ powerstation: v as number })} />;
}

/** The chosen VPP's voltage heat map, over the server's hexagon tiles (issue 30). */
export function HeatMapBody(props: { vpp: number | null }) {
  if (props.vpp === null) return <Center h="100%">{CHOOSE_VPP}</Center>;
  return <VoltageMap vpp={props.vpp} />;
}
