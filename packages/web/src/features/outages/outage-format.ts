import { formatDuration } from '@vpp/shared/format';
import { OUTAGE_MESSAGES, outageReasonWord } from '@vpp/shared/outages/messages';
import type { GridOutage } from '@vpp/shared/outages/schemas';
import { formatDispatchStart, REFRESH_FAST_MS, REFRESH_SLOW_MS } from '../events/index.ts';

export const OUTAGE_LIST_PATH = '/virtual-power-plants/grid-outages';
export const outagePath = (id: number) => `/virtual-power-plants/grid-outages/${id}`;
export const nodePath = (deploymentUid: number) => `/fleet-monitoring/nodes/${deploymentUid}`;

/** Texts of the outage screens that spec 3 does not give. */
export const OUTAGE_SCREEN_TEXTS = {
  notFound: 'This grid outage could not be found. It may have been removed, or it belongs to another organisation.',
  backToList: 'Back to Grid Outages',
  noOptOuts: 'No customers have opted out.',
} as const;

/** While an outage is upcoming or in progress its detail refreshes every 10 s (spec 3 §4). */
export const REFRESH_ACTIVE_MS = 10_000;

/** The detail's refresh (spec 3 §4): 2 s if created under 60 s ago, 10 s while INPROGRESS or UPCOMING, otherwise 5 minutes. */
export function outageRefreshMs(o: Pick<GridOutage, 'createdAt' | 'cancelledAt' | 'request'>, nowMs: number): number {
  const now = nowMs / 1000;
  if (now - o.createdAt < 60) return REFRESH_FAST_MS;
  if (o.cancelledAt !== null) return REFRESH_SLOW_MS;
  return now < o.request.startTime + o.request.duration ? REFRESH_ACTIVE_MS : REFRESH_SLOW_MS;
}

/** The detail's title: the reason (or 'Unknown Grid Outage') and the VPP. */
export const outageTitle = (o: Pick<GridOutage, 'reason' | 'powerstation'>) =>
  `${o.reason || OUTAGE_MESSAGES.unknownTitle}${o.powerstation ? ` - ${o.powerstation.name}` : ''}`;

/** The detail's summary sentence, 'Storm Approaching' reading 'storm'. */
export function outageSummary(o: GridOutage, zone: string, nowS: number): string {
  const where = o.powerstation?.name ?? 'the Virtual Power Plant';
  const when = formatDispatchStart(o.request.startTime, zone, nowS);
  const word = outageReasonWord(o.reason);
  const what = word.endsWith('outage') ? word : `${word} outage`;
  return `Batteries in ${where} charge to full ahead of the expected ${what} from ${when} for ${formatDuration(o.request.duration)}, and back up their homes while the grid is out.`;
}

/** Sorted as spec 3 §2.6 asks: start descending, then duration descending (the server answers so too). */
export const sortOutages = (list: readonly GridOutage[]) =>
  [...list].sort((a, b) => b.request.startTime - a.request.startTime || b.request.duration - a.request.duration || b.id - a.id);
