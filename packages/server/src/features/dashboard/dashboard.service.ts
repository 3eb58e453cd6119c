import { type Dashboard, DEFAULT_DASHBOARD, WIDGET_PERMISSIONS, type Widget, widgetSchema } from '@vpp/shared/dashboard/layout';
import { TICKER_HIGH_TEMP_C, TICKER_MAX_HIGH_TEMPS, TICKER_RECENT_S, type TickerEvent, tickerEventText } from '@vpp/shared/dashboard/ticker';
import { type PermissionRequirement, satisfies } from '@vpp/shared/permissions/registry';
import { type Database, nowS } from '../../db/database.ts';
import { WeatherSeries } from '../../forecast/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { localDate, newCustomerCount } from '../customers/index.ts';
import { tickerDispatches } from '../dispatches/index.ts';
import { ownPowerstationIds } from '../vpps/index.ts';
import * as repo from './dashboard.repo.ts';

// The dashboard's rules: each user's saved widgets (spec 2 §3, §4) and the ticker's events (§3, §4).

/**
 * The user's dashboard: what they saved, or the default (a Welcome widget) when nothing is. A saved
 * widget that no longer reads as one (a kind since retired) is left out rather than failing the page.
 */
export async function dashboardOf(ctx: AppContext, user: AuthUser): Promise<Dashboard> {
  const json = await repo.savedWidgets(ctx.db, user.id);
  if (json === undefined) return DEFAULT_DASHBOARD;
  const stored: unknown[] = JSON.parse(json);
  const widgets = stored.flatMap((w) => {
    const r = widgetSchema.safeParse(w);
    return r.success ? [r.data] : [];
  });
  return { widgets, isDefault: false };
}

/**
 * Replaces the user's dashboard with the validated widgets (the route's schema refused bad input). A
 * widget's VPP must be one of the organisation's: another's (or none) is a 400 and nothing is saved.
 * (Widgets the user's permissions no longer allow are kept: they show 'Not Authorized' and their
 * data calls stay refused, and a user who lost a permission can still rearrange the rest.)
 */
export async function saveDashboard(ctx: AppContext, user: AuthUser, body: { widgets: Widget[] }): Promise<Dashboard> {
  const asked = new Set(
    body.widgets.flatMap((w) => ('powerstation' in w.settings && typeof w.settings.powerstation === 'number' ? [w.settings.powerstation] : [])),
  );
  if (asked.size) {
    const own = await ownPowerstationIds(ctx.db, user.organisationId, [...asked]);
    const i = body.widgets.findIndex((w) => 'powerstation' in w.settings && typeof w.settings.powerstation === 'number' && !own.has(w.settings.powerstation));
    if (i >= 0) throw badRequest(`widgets[${i}].settings.powerstation is not a Virtual Power Plant of your organisation.`);
  }
  await repo.saveWidgets(ctx.db, user.id, JSON.stringify(body.widgets), nowS());
  return { widgets: body.widgets, isDefault: false };
}

/** Who sees the weather over the fleet: anyone who may see where its nodes are (the Node Map's permission). */
const WEATHER_VIEW: PermissionRequirement = WIDGET_PERMISSIONS.NODE_MAP as PermissionRequirement;
/** Who sees the commissioning counts: as the deployment counts of GET /dashboard/totals. */
const NODE_COUNTS_VIEW: PermissionRequirement = 'fleet.node.any';
const CUSTOMERS_VIEW: PermissionRequirement = 'fleet.customerInformation.any';

const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * The weather over the fleet now, from the weather the console keeps: its cloud cover (mean over its
 * nodes with weather) and its postcodes at or above the heat threshold, hottest first. None without
 * weather for any of its postcodes.
 */
export async function weatherEvents(ctx: AppContext, orgId: number, now: number): Promise<TickerEvent[]> {
  const places = await repo.fleetPlaces(ctx.db, orgId);
  if (!places.length) return [];
  const weather = await WeatherSeries.read(
    ctx.db,
    places.map((p) => p.postcode),
    now,
    now + 1,
  );
  let cloud = 0;
  let covered = 0;
  const temps = new Map<string, number>();
  for (const p of places) {
    const c = weather.cloud(p.postcode, now);
    if (Number.isFinite(c)) {
      cloud += c * p.nodes;
      covered += p.nodes;
    }
    const t = weather.temperature(p.postcode, now);
    if (Number.isFinite(t)) temps.set(p.postcode, round1(t));
  }
  if (covered === 0) return [];
  const value = Math.round((cloud / covered) * 100) / 100;
  const events: TickerEvent[] = [{ type: 'CLOUD_COVER', value, text: tickerEventText({ type: 'CLOUD_COVER', value }) }];
  const hot = [...temps]
    .map(([postcode, value]) => ({ postcode, value }))
    .filter((p) => p.value >= TICKER_HIGH_TEMP_C)
    .sort((a, b) => b.value - a.value || a.postcode.localeCompare(b.postcode))
    .slice(0, TICKER_MAX_HIGH_TEMPS);
  for (const p of hot) events.push({ type: 'HIGH_TEMP', ...p, text: tickerEventText({ type: 'HIGH_TEMP', ...p }) });
  return events;
}

interface FleetFigures {
  weather: TickerEvent[];
  newlyCommissioned: number;
  awaiting: number;
  newCustomers: number;
}

/** How long the fleet's weather and counts are kept for the organisation's next ticker reads. */
const FIGURES_TTL_S = 60;
const figuresCache = new WeakMap<Database, Map<string, { until: number; figures: Promise<FleetFigures> }>>();

/**
 * The ticker's figures of the fleet at `now`, read at most once a minute per organisation: every
 * dashboard on a control room's walls asks for them, and they change over minutes and days.
 */
function fleetFigures(ctx: AppContext, orgId: number, zone: string, now: number): Promise<FleetFigures> {
  const byOrg = figuresCache.get(ctx.db) ?? new Map();
  figuresCache.set(ctx.db, byOrg);
  const key = `${orgId}|${zone}`;
  const hit = byOrg.get(key);
  if (hit && now < hit.until && now >= hit.until - FIGURES_TTL_S) return hit.figures;
  const figures = (async () => {
    const counts = await repo.commissioningCounts(ctx.db, orgId, now - TICKER_RECENT_S);
    return {
      weather: await weatherEvents(ctx, orgId, now),
      ...counts,
      newCustomers: await newCustomerCount(ctx.db, orgId, localDate(now - TICKER_RECENT_S, zone)),
    };
  })();
  byOrg.set(key, { until: now + FIGURES_TTL_S, figures });
  figures.catch(() => byOrg.delete(key));
  return figures;
}

/**
 * The ticker (spec 2 §3 'Ticker event'): the organisation's dispatches, the weather over its fleet,
 * and its counts of nodes newly commissioned and awaiting commissioning and of new customers, each
 * shown to those who may see what it tells of. Dispatches are read every time; the rest at most
 * once a minute (fleetFigures).
 */
export async function tickerEvents(ctx: AppContext, user: AuthUser, now = nowS()): Promise<TickerEvent[]> {
  const may = (p: PermissionRequirement) => satisfies(user.permissions, p);
  const events: TickerEvent[] = [...(await tickerDispatches(ctx, user, now))];
  if (!may(WEATHER_VIEW) && !may(NODE_COUNTS_VIEW) && !may(CUSTOMERS_VIEW)) return events;
  const f = await fleetFigures(ctx, user.organisationId, user.row.timezone ?? 'Australia/Sydney', now);
  if (may(WEATHER_VIEW)) events.push(...f.weather);
  if (may(NODE_COUNTS_VIEW))
    for (const [type, value] of [
      ['NEWLY_COMMISSIONED', f.newlyCommissioned],
      ['AWAITING_COMMISSION', f.awaiting],
    ] as const)
      events.push({ type, value, text: tickerEventText({ type, value }) });
  if (may(CUSTOMERS_VIEW))
    events.push({ type: 'NEW_CUSTOMERS', value: f.newCustomers, text: tickerEventText({ type: 'NEW_CUSTOMERS', value: f.newCustomers }) });
  return events;
}
