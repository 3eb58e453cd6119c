import {
  DASHBOARD_COLS,
  DASHBOARD_SAVE_DEBOUNCE_MS,
  type Dashboard,
  newWidgetLayout,
  type Widget,
  type WidgetId,
  type WidgetLayout,
  widgetSchema,
} from '@vpp/shared/dashboard/layout';
import { useCallback, useEffect, useRef, useState } from 'react';
import { queryClient } from '../../lib/query-client.ts';
import { dashboardKeys, keepLayout, saveDashboard } from './api.ts';

/** After a save fails (the server restarting, the network down), it is tried again this much later. */
export const SAVE_RETRY_MS = 15_000;

type GridItem = { i: string; x: number; y: number; w: number; h: number };
const unkeyed = (w: PlacedWidget[]): Widget[] => w.map(({ key: _key, ...rest }) => rest);

/** A widget on screen: the saved widget and a key that stays with it while the page is open. */
export type PlacedWidget = Widget & { key: string };

let nextKey = 0;
const keyed = (w: Widget): PlacedWidget => ({ ...w, key: `w${++nextKey}` });

/** A new widget of a kind, its settings defaulted by the contract, placed as spec 2 §4 says. */
export function newWidget(widgetId: WidgetId, widgets: readonly { layout: WidgetLayout }[]): PlacedWidget {
  return keyed(widgetSchema.parse({ widgetId, layout: newWidgetLayout(widgets), settings: {} }));
}

/** The grid's positions, as react-grid-layout reports them, taken onto the widgets (by key). */
export function withLayout(widgets: PlacedWidget[], layout: readonly GridItem[]): PlacedWidget[] {
  const at = new Map(layout.map((l) => [l.i, l]));
  let changed = false;
  const next = widgets.map((w) => {
    const l = at.get(w.key);
    if (!l || (l.x === w.layout.x && l.y === w.layout.y && l.w === w.layout.w && l.h === w.layout.h)) return w;
    changed = true;
    return { ...w, layout: { x: l.x, y: l.y, w: l.w, h: l.h } };
  });
  return changed ? next : widgets;
}

/**
 * The widgets after a move or resize on a grid of `cols` columns. On the widest grid (the saved
 * layout's 5 columns) every position is taken; on a narrower one only the widget the user moved, so
 * that a drag on a laptop or a phone never squeezes the rest of a wall's layout into fewer columns.
 */
export function afterMove(widgets: PlacedWidget[], layout: readonly GridItem[], item: GridItem | null, cols: number): PlacedWidget[] {
  if (cols >= DASHBOARD_COLS.lg) return withLayout(widgets, layout);
  // The moved widget where the grid settled it (compacted upwards), not where it was let go.
  const settled = item ? (layout.find((l) => l.i === item.i) ?? item) : null;
  return settled ? withLayout(widgets, [settled]) : widgets;
}

/**
 * The dashboard being edited: its widgets, and the save (POST /account/dashboard) made
 * DASHBOARD_SAVE_DEBOUNCE_MS after the last change. `saving` is true from a change until its save
 * answers ('Saving...'). A change before leaving the page is saved on leaving.
 */
export function useDashboardState(loaded: Dashboard | undefined, opts: { placeholder?: boolean; user?: number } = {}) {
  const [widgets, setWidgets] = useState<PlacedWidget[] | null>(null);
  const [isDefault, setIsDefault] = useState(true);
  const [saving, setSaving] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef<PlacedWidget[] | null>(null);
  const inFlight = useRef(0);
  /** The widgets of the default dashboard (the Welcome widget): the first widget added replaces them, moved or not. */
  const defaults = useRef(new Set<string>());

  /** The layout the widgets were taken from while it was the browser's kept one (see useDashboardLayout), and whether the user changed them since. */
  const shown = useRef<{ json: string; placeholder: boolean } | null>(null);
  const edited = useRef(false);
  const placeholder = opts.placeholder ?? false;
  const user = opts.user;

  // The widgets are taken from the first layout given; the kept layout that stood in is replaced by
  // the server's when that differs and the user has not changed it meanwhile.
  useEffect(() => {
    if (!loaded) return;
    const json = JSON.stringify(loaded);
    const replaceable = shown.current === null || (shown.current.placeholder && !edited.current);
    if (!replaceable) return;
    if (shown.current?.json !== json) {
      const w = loaded.widgets.map(keyed);
      latest.current = w;
      defaults.current = new Set(loaded.isDefault ? w.map((x) => x.key) : []);
      setWidgets(w);
      setIsDefault(loaded.isDefault);
    }
    shown.current = { json, placeholder };
  }, [loaded, placeholder]);

  const flush = useCallback(async () => {
    timer.current = null;
    const w = latest.current;
    if (!w) return;
    inFlight.current++;
    try {
      await saveDashboard({ widgets: unkeyed(w) });
    } catch {
      // The request layer toasts 'Failed to save Dashboard'; the screen keeps the user's layout and,
      // unless a newer change is already on its way, the save is tried again (the server restarting).
      if (timer.current === null) timer.current = setTimeout(flush, SAVE_RETRY_MS);
    } finally {
      inFlight.current--;
      if (inFlight.current === 0 && timer.current === null) setSaving(false);
    }
  }, []);

  const change = useCallback(
    (next: PlacedWidget[]) => {
      latest.current = next;
      edited.current = true;
      setWidgets(next);
      setIsDefault(false);
      setSaving(true);
      // The cached dashboard follows the screen, so that leaving and coming back shows this layout, not the one first loaded.
      const dashboard: Dashboard = { widgets: unkeyed(next), isDefault: false };
      queryClient.setQueryData<Dashboard>(dashboardKeys.layout, dashboard);
      keepLayout(user, dashboard);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(flush, DASHBOARD_SAVE_DEBOUNCE_MS);
    },
    [flush, user],
  );

  // Leaving the page with a change not yet saved saves it at once.
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        void flush();
      }
    },
    [flush],
  );

  const current = widgets ?? [];
  return {
    widgets,
    isDefault,
    saving,
    /** Adds a widget: the first one replaces the default Welcome widget (even if it was moved meanwhile). */
    add: (widgetId: WidgetId) => {
      const base = current.filter((w) => !defaults.current.has(w.key));
      defaults.current.clear();
      change([...base, newWidget(widgetId, base)]);
    },
    remove: (key: string) => change(current.filter((w) => w.key !== key)),
    updateSettings: (key: string, settings: Widget['settings']) =>
      change(current.map((w) => (w.key === key ? { ...widgetSchema.parse({ widgetId: w.widgetId, layout: w.layout, settings }), key } : w))),
    /** A widget moved or resized on a grid of `cols` columns (see afterMove). */
    moved: (layout: readonly GridItem[], item: GridItem | null, cols: number) => {
      const next = afterMove(current, layout, item, cols);
      if (next !== current) change(next);
    },
  };
}
