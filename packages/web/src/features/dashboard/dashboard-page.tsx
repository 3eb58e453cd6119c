import 'react-grid-layout/css/styles.css';
import './dashboard.css';
import { Box, Button, Group, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconMaximize } from '@tabler/icons-react';
import {
  DASHBOARD_BREAKPOINTS,
  DASHBOARD_COLS,
  DASHBOARD_ROW_HEIGHT,
  WIDGET_IDS,
  WIDGET_MAX_ROWS,
  WIDGET_NAMES,
  WIDGET_PERMISSIONS,
  type WidgetId,
} from '@vpp/shared/dashboard/layout';
import { satisfies } from '@vpp/shared/permissions/registry';
import { useState } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import { PageLayout } from '../../components/page-layout.tsx';
import { useAccount } from '../../lib/account.ts';
import { useDashboardLayout } from './api.ts';
import { type PlacedWidget, useDashboardState } from './dashboard-state.ts';
import { FullScreen } from './full-screen.tsx';
import { Ticker } from './ticker.tsx';
import { WidgetView } from './widgets/registry.tsx';
import { DRAG_HANDLE, NO_DRAG, WidgetError, WidgetLoading, widgetErrorMessage } from './widgets/widget-frame.tsx';

/** The columns at a grid width (spec 2 §9: breakpoints lg 2000, md 1500, sm 1000, xs 480, xxs 0). */
export function columnsAt(width: number): number {
  const bps = Object.entries(DASHBOARD_BREAKPOINTS).sort((a, b) => b[1] - a[1]);
  const bp = bps.find(([, min]) => width >= min)?.[0] ?? 'xxs';
  return DASHBOARD_COLS[bp as keyof typeof DASHBOARD_COLS];
}

/**
 * The saved layout (in the widest breakpoint's 5 columns) on a grid of `cols` columns: a widget
 * wider than the grid narrows to it and one past its right edge moves in; the grid then packs them.
 */
export function gridLayout(widgets: readonly PlacedWidget[], cols: number): Layout {
  return widgets.map((w) => {
    const width = Math.min(w.layout.w, cols);
    return { i: w.key, x: Math.min(w.layout.x, cols - width), y: w.layout.y, w: width, h: w.layout.h, maxH: WIDGET_MAX_ROWS };
  });
}

/** The widgets the user may add (spec 2 §6), in the spec's order. */
export function useAddableWidgets(): WidgetId[] {
  const { data } = useAccount();
  if (!data) return [];
  return WIDGET_IDS.filter((id) => {
    const need = WIDGET_PERMISSIONS[id];
    return need === null || satisfies(data.permissions, need);
  });
}

/** The dashboard (spec 2 §2): the user's widgets on a draggable, resizable grid, the ticker, Add Widget and Full Screen. */
export function DashboardPage() {
  const loaded = useDashboardLayout();
  const state = useDashboardState(loaded.data, { placeholder: loaded.isPlaceholderData, user: useAccount().data?.id });
  const addable = useAddableWidgets();
  const [fullScreen, setFullScreen] = useState(false);
  const { width, containerRef, mounted } = useContainerWidth();
  const cols = columnsAt(width);
  const widgets = state.widgets;

  const actions = (
    <Group gap="sm">
      {state.saving && (
        <Text size="sm" c="dimmed" role="status">
          Saving...
        </Text>
      )}
      <Menu position="bottom-end" shadow="md">
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={16} />} disabled={!widgets}>
            Add Widget
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {addable.map((id) => (
            <Menu.Item key={id} onClick={() => state.add(id)}>
              {WIDGET_NAMES[id]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Button leftSection={<IconMaximize size={16} />} onClick={() => setFullScreen(true)} disabled={!widgets?.length}>
        Full Screen
      </Button>
    </Group>
  );

  return (
    <PageLayout title="Dashboard" actions={actions}>
      <Ticker />
      <Box ref={containerRef} mx={-10}>
        {loaded.isError && !widgets && <WidgetError message={widgetErrorMessage(loaded.error)} />}
        {!loaded.isError && !widgets && <WidgetLoading />}
        {widgets && widgets.length === 0 && (
          <Text c="dimmed" px={10}>
            This dashboard has no widgets. Add Widget puts one here.
          </Text>
        )}
        {widgets && mounted && widgets.length > 0 && (
          <ReactGridLayout
            width={width}
            layout={gridLayout(widgets, cols)}
            gridConfig={{ cols, rowHeight: DASHBOARD_ROW_HEIGHT, margin: [10, 10] }}
            dragConfig={{ handle: `.${DRAG_HANDLE}`, cancel: `.${NO_DRAG}` }}
            resizeConfig={{ handles: ['se'] }}
            onDragStop={(layout, _old, item) => state.moved(layout, item, cols)}
            onResizeStop={(layout, _old, item) => state.moved(layout, item, cols)}
          >
            {widgets.map((w) => (
              <div key={w.key} data-widget={w.widgetId}>
                <WidgetView widget={w} onRemove={() => state.remove(w.key)} onSettings={(s) => state.updateSettings(w.key, s)} />
              </div>
            ))}
          </ReactGridLayout>
        )}
      </Box>
      {fullScreen && widgets && <FullScreen widgets={widgets} onExit={() => setFullScreen(false)} />}
    </PageLayout>
  );
}
