import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { MAX_ID } from '../api/inputs.ts';
import { ALL_FLEET_NODES } from '../constants.ts';
import type { PermissionRequirement } from '../permissions/registry.ts';

// A user's dashboard (spec 2 §3 'Dashboard', §4, §9): widgets[] of {widgetId, layout {x, y, w, h},
// settings}, saved by POST /account/dashboard and answered by GET /account/dashboard.

/** The widgets a dashboard can hold (spec 2 §2), by the id stored in `widgetId`. */
export const WIDGET_IDS = ['WELCOME', 'VOLTAGE_HEAT_MAP', 'SINGLE_STAT', 'NODE_MAP', 'DATA_GRAPH'] as const;
export type WidgetId = (typeof WIDGET_IDS)[number];

/** Each widget's name as the spec writes it (the Add Widget menu and the widget's title). */
export const WIDGET_NAMES: Readonly<Record<WidgetId, string>> = {
  WELCOME: 'Welcome',
  VOLTAGE_HEAT_MAP: 'Voltage Heat Map',
  SINGLE_STAT: 'Single Stat',
  NODE_MAP: 'Node Map',
  DATA_GRAPH: 'Data Graph',
};

/**
 * Who may add and load each widget (spec 2 §5 'Dashboard widgets'); null for anyone signed in. The
 * Welcome widget needs nothing: it is the default dashboard of every user.
 */
export const WIDGET_PERMISSIONS: Readonly<Record<WidgetId, PermissionRequirement | null>> = {
  WELCOME: null,
  VOLTAGE_HEAT_MAP: 'fleet.powerstations.data.view',
  SINGLE_STAT: 'fleet.node.any',
  NODE_MAP: { anyOf: ['fleet.node.any', 'fleet.customerInformation.any', 'fleet.powerstations.any'] },
  DATA_GRAPH: { anyOf: ['fleet.powerstations.data.view', 'fleet.node.any'] },
};

/** The grid of spec 2 §9 (react-grid-layout's model): row height, breakpoints and columns. */
export const DASHBOARD_ROW_HEIGHT = 150;
export const DASHBOARD_BREAKPOINTS = { lg: 2000, md: 1500, sm: 1000, xs: 480, xxs: 0 } as const;
export const DASHBOARD_COLS = { lg: 5, md: 4, sm: 4, xs: 2, xxs: 1 } as const;
/** A saved layout is in the widest breakpoint's columns; narrower ones are derived from it. */
export const DASHBOARD_GRID_COLUMNS = DASHBOARD_COLS.lg;
/** The tallest a widget may be, in rows (1200 px at 150 px a row). */
export const WIDGET_MAX_ROWS = 8;
/** The lowest row a widget may start at: 50 widgets of the tallest size stacked in one column. */
export const WIDGET_MAX_Y = 400;
/** The most widgets one dashboard holds. */
export const DASHBOARD_MAX_WIDGETS = 50;
/** A new widget's size (spec 2 §4): 1 wide by 2 high, below the lowest widget in column 0. */
export const NEW_WIDGET_SIZE = { w: 1, h: 2 } as const;
/** Dashboard changes are saved this long after the last one (spec 2 §4, §9). */
export const DASHBOARD_SAVE_DEBOUNCE_MS = 2000;
/** Full-screen mode shows the next widget after this long. */
export const FULLSCREEN_ROTATE_MS = 15_000;
/** Graph widgets refresh this often. */
export const WIDGET_GRAPH_REFRESH_MS = 300_000;
/** The voltage heat map's query (spec 2 §7, §9): the latest meterVoltage of each node, at most 1200 s old. */
export const HEAT_MAP_MAX_AGE_S = 1200;

const whole = (field: string, min: number, max: number) => {
  const message = `${field} must be a whole number from ${min} to ${max}.`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** A widget's place in the grid, in the widest breakpoint's 5 columns and rows of 150 px. */
export const widgetLayoutSchema = z
  .object(
    {
      x: whole('layout.x', 0, DASHBOARD_GRID_COLUMNS - 1),
      y: whole('layout.y', 0, WIDGET_MAX_Y),
      w: whole('layout.w', 1, DASHBOARD_GRID_COLUMNS),
      h: whole('layout.h', 1, WIDGET_MAX_ROWS),
    },
    { error: 'layout must be an object with x, y, w and h.' },
  )
  .refine((l) => l.x + l.w <= DASHBOARD_GRID_COLUMNS, {
    message: `A widget must fit in the grid's ${DASHBOARD_GRID_COLUMNS} columns: layout.x + layout.w must be at most ${DASHBOARD_GRID_COLUMNS}.`,
    path: ['w'],
  });
export type WidgetLayout = z.infer<typeof widgetLayoutSchema>;

const vppMessage = `settings.powerstation must be a Virtual Power Plant id (a whole number from 1 to ${MAX_ID}).`;
const vppId = z.number({ error: vppMessage }).int(vppMessage).min(1, vppMessage).max(MAX_ID, vppMessage);

/** Deployment counts a Single Stat can show (spec 2 §3 'Deployment counts', GET /dashboard/totals). */
export const SINGLE_STAT_COUNT_METRICS = ['commissioned', 'non_commissioned', 'offline'] as const;
/** A VPP's live figures a Single Stat can show instead (its latest readings, summed over its nodes). */
export const SINGLE_STAT_VPP_METRICS = ['solarPower', 'meterPower', 'remainingCharge'] as const;
export const SINGLE_STAT_METRICS = [...SINGLE_STAT_COUNT_METRICS, ...SINGLE_STAT_VPP_METRICS] as const;
export type SingleStatMetric = (typeof SINGLE_STAT_METRICS)[number];
/** The Data Graph's metrics (spec 2 §2): from the start of the user's day at 300 s. */
export const DATA_GRAPH_METRICS = ['solarPower', 'meterPower', 'remainingCharge'] as const;
export type DataGraphMetric = (typeof DATA_GRAPH_METRICS)[number];

const settingsObject = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: 'settings must be an object.' });

/** Welcome: no settings. */
export const welcomeSettingsSchema = settingsObject({});
/** Voltage Heat Map: the VPP whose nodes it colours; null until one is chosen. */
export const heatMapSettingsSchema = settingsObject({ powerstation: vppId.nullable().default(null) });
/**
 * Single Stat: a deployment count of the fleet, or a VPP's live figure (powerstation required for
 * solarPower, meterPower and remainingCharge).
 */
export const singleStatSettingsSchema = settingsObject({
  metric: z.enum(SINGLE_STAT_METRICS, { error: `settings.metric must be one of ${SINGLE_STAT_METRICS.join(', ')}.` }).default('commissioned'),
  powerstation: vppId.nullable().default(null),
});
/** Node Map: clustered or not. */
export const nodeMapSettingsSchema = settingsObject({
  shouldCluster: z.boolean({ error: 'settings.shouldCluster must be true or false.' }).default(true),
});
/** Data Graph: a VPP or the whole fleet (__ALL_FLEET_NODES__), and one metric. */
export const dataGraphSettingsSchema = settingsObject({
  powerstation: z
    .union([z.literal(ALL_FLEET_NODES), vppId], { error: `settings.powerstation must be a Virtual Power Plant id or ${ALL_FLEET_NODES}.` })
    .default(ALL_FLEET_NODES),
  metric: z.enum(DATA_GRAPH_METRICS, { error: `settings.metric must be one of ${DATA_GRAPH_METRICS.join(', ')}.` }).default('solarPower'),
});

const widget = <const Id extends WidgetId, S extends z.ZodType>(id: Id, settings: S) =>
  z.object({ widgetId: z.literal(id), layout: widgetLayoutSchema, settings: settings.default({} as never) });

/** One widget of a dashboard: its kind, its place, and the settings of its kind. */
export const widgetSchema = z.discriminatedUnion(
  'widgetId',
  [
    widget('WELCOME', welcomeSettingsSchema),
    widget('VOLTAGE_HEAT_MAP', heatMapSettingsSchema),
    widget(
      'SINGLE_STAT',
      singleStatSettingsSchema.refine((s) => !(SINGLE_STAT_VPP_METRICS as readonly string[]).includes(s.metric) || s.powerstation !== null, {
        message: `settings.powerstation is required for a Single Stat of ${SINGLE_STAT_VPP_METRICS.join(', ')}.`,
        path: ['powerstation'],
      }),
    ),
    widget('NODE_MAP', nodeMapSettingsSchema),
    widget('DATA_GRAPH', dataGraphSettingsSchema),
  ],
  { error: `Each widget must be an object whose widgetId is one of ${WIDGET_IDS.join(', ')}.` },
);
export type Widget = z.infer<typeof widgetSchema>;
export type WidgetInput = z.input<typeof widgetSchema>;

/** `POST /account/dashboard`: the whole dashboard, replacing the saved one. */
export const dashboardBody = z.object(
  {
    widgets: z
      .array(widgetSchema, { error: 'widgets must be a list.' })
      .max(DASHBOARD_MAX_WIDGETS, `A dashboard can hold at most ${DASHBOARD_MAX_WIDGETS} widgets.`)
      // One Node Map widget.
      .meta({ examples: [[{ widgetId: 'NODE_MAP', layout: { x: 0, y: 0, w: 2, h: 3 }, settings: { shouldCluster: false } }]] }),
  },
  { error: 'The dashboard must be an object with a widgets list.' },
);
export type DashboardBody = z.input<typeof dashboardBody>;

/** A dashboard as answered: its widgets, and whether it is the default one (nothing saved yet). */
export const dashboardSchema = z.object({
  widgets: z.array(widgetSchema),
  /** True when the user has saved nothing: the default dashboard, a Welcome widget, which the first added widget replaces. */
  isDefault: z.boolean(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** `GET` and `POST /account/dashboard`: `{status, data: {widgets, isDefault}}`. */
export const dashboardReply = okReply(dashboardSchema);

/** The default dashboard (spec 2 §4): one Welcome widget at the top left. */
export const DEFAULT_DASHBOARD: Dashboard = {
  widgets: [{ widgetId: 'WELCOME', layout: { x: 0, y: 0, w: 2, h: 2 }, settings: {} }],
  isDefault: true,
};

/**
 * Where a new widget goes (spec 2 §4): 1 wide by 2 high, below the lowest widget in column 0. Issue 34
 * asked that added widgets fill a row instead; the spec's words are kept (the user moves and resizes
 * them afterwards).
 */
export function newWidgetLayout(widgets: readonly { layout: WidgetLayout }[]): WidgetLayout {
  const bottom = widgets.filter((w) => w.layout.x === 0).reduce((max, w) => Math.max(max, w.layout.y + w.layout.h), 0);
  return { x: 0, y: Math.min(bottom, WIDGET_MAX_Y), ...NEW_WIDGET_SIZE };
}
