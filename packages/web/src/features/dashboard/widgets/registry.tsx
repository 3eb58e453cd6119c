import { ALL_FLEET_NODES } from '@vpp/shared/constants';
import { WIDGET_NAMES, WIDGET_PERMISSIONS, type Widget } from '@vpp/shared/dashboard/layout';
import { MESSAGES } from '@vpp/shared/messages';
import { satisfies } from '@vpp/shared/permissions/registry';
import { useAccount } from '../../../lib/account.ts';
import { useCanViewVppData } from '../api.ts';
import { DataGraphBody, DataGraphSettings } from './data-graph-widget.tsx';
import { HeatMapBody, HeatMapSettings } from './heat-map-widget.tsx';
import { NodeMapBody, NodeMapSettings } from './node-map-widget.tsx';
import { SingleStatBody, SingleStatSettings } from './single-stat-widget.tsx';
import { WelcomeBody } from './welcome-widget.tsx';
import { ALL_FLEET_LABEL, METRIC_LABELS, useVppName } from './widget-common.tsx';
import { WidgetError, WidgetFrame } from './widget-frame.tsx';

export { ALL_FLEET_LABEL, CHOOSE_VPP, METRIC_LABELS } from './widget-common.tsx';

/**
 * The widget kinds (spec 2 §3), each in its own file with its body, its settings and its own data
 * requests; this registry picks the one a widget names.
 */

/** A widget's settings form (spec 2 §3: VPP, metric, clustering), per kind; null for kinds without settings. */
export function WidgetSettings(props: { widget: Widget; onChange: (settings: Widget['settings']) => void }) {
  const w = props.widget;
  switch (w.widgetId) {
    case 'VOLTAGE_HEAT_MAP':
      return <HeatMapSettings settings={w.settings} onChange={props.onChange} />;
    case 'SINGLE_STAT':
      return <SingleStatSettings settings={w.settings} onChange={props.onChange} />;
    case 'NODE_MAP':
      return <NodeMapSettings settings={w.settings} onChange={props.onChange} />;
    case 'DATA_GRAPH':
      return <DataGraphSettings settings={w.settings} onChange={props.onChange} />;
    default:
      return null;
  }
}

/** The subtitle under a widget's name: what it shows. */
export function useWidgetSubtitle(w: Widget): string | undefined {
  const canData = useCanViewVppData();
  const vpp = useVppName('powerstation' in w.settings ? w.settings.powerstation : null);
  switch (w.widgetId) {
    case 'VOLTAGE_HEAT_MAP':
      return vpp;
    case 'SINGLE_STAT':
      return [METRIC_LABELS[w.settings.metric], vpp].filter(Boolean).join(' · ');
    case 'NODE_MAP':
      return w.settings.shouldCluster ? 'Clustered' : 'Every node';
    case 'DATA_GRAPH':
      return `${METRIC_LABELS[w.settings.metric]} · ${!canData || w.settings.powerstation === ALL_FLEET_NODES ? ALL_FLEET_LABEL : vpp}`;
    default:
      return undefined;
  }
}

/** The body of a widget of any kind; a widget the user may no longer load says so. */
export function WidgetBody(props: { widget: Widget; height: number }) {
  const { data: account } = useAccount();
  const w = props.widget;
  const need = WIDGET_PERMISSIONS[w.widgetId];
  if (need && account && !satisfies(account.permissions, need)) return <WidgetError message={MESSAGES.notAuthorized} />;
  switch (w.widgetId) {
    case 'WELCOME':
      return <WelcomeBody />;
    case 'VOLTAGE_HEAT_MAP':
      return <HeatMapBody vpp={w.settings.powerstation} />;
    case 'SINGLE_STAT':
      return <SingleStatBody settings={w.settings} height={props.height} />;
    case 'NODE_MAP':
      return <NodeMapBody cluster={w.settings.shouldCluster} height={props.height} />;
    case 'DATA_GRAPH':
      return <DataGraphBody settings={w.settings} height={props.height} />;
  }
}

/** A widget in its frame: on the grid with settings and removal, in full screen without. */
export function WidgetView(props: { widget: Widget; onSettings?: (s: Widget['settings']) => void; onRemove?: () => void; large?: boolean }) {
  const subtitle = useWidgetSubtitle(props.widget);
  const hasSettings = props.widget.widgetId !== 'WELCOME';
  return (
    <WidgetFrame
      title={WIDGET_NAMES[props.widget.widgetId]}
      subtitle={subtitle}
      large={props.large}
      onRemove={props.onRemove}
      settings={hasSettings && props.onSettings ? <WidgetSettings widget={props.widget} onChange={props.onSettings} /> : undefined}
    >
      {(height) => <WidgetBody widget={props.widget} height={height} />}
    </WidgetFrame>
  );
}
