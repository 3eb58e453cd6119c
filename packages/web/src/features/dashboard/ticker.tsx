import { Box, type BoxProps } from '@mantine/core';
import type { TickerEvent } from '@vpp/shared/dashboard/ticker';
import { useTimeZone } from '../../lib/account.ts';
import { formatDispatchStart } from '../events/index.ts';
import { useTicker } from './api.ts';

/**
 * An event's words on the strip: the server's, and for a dispatch when it starts (upcoming) or ends
 * (in progress), in the user's zone: 'Harbour is due to discharge at 28 November, 6:00 pm'.
 */
export function tickerItemText(e: TickerEvent, zone: string, nowS: number): string {
  if (e.type !== 'DISPATCH') return e.text;
  return e.state === 'UPCOMING'
    ? `${e.text} at ${formatDispatchStart(e.startTime, zone, nowS)}`
    : `${e.text} until ${formatDispatchStart(e.startTime + e.duration, zone, nowS)}`;
}

/** Seconds the strip takes to pass once: about 8 characters a second, at least 20 s. */
export const tickerDuration = (events: readonly TickerEvent[]) => Math.max(20, Math.round(events.reduce((n, e) => n + e.text.length + 6, 0) / 8));

/**
 * The news ticker (spec 2 §2, §4, GET /ticker): the organisation's events in the server's words,
 * scrolling along a strip that pauses while the pointer is over it. Nothing while there are none.
 */
export function Ticker(props: BoxProps) {
  const q = useTicker();
  const zone = useTimeZone();
  const events = q.data ?? [];
  if (events.length === 0) return null;
  const nowS = q.dataUpdatedAt / 1000;
  // The loop's second copy is for the eye only: hidden from readers and inert, so each item is heard once.
  const list = (hidden: boolean) => (
    <ul aria-hidden={hidden || undefined} inert={hidden || undefined} aria-label={hidden ? undefined : 'Ticker events'}>
      {events.map((e) => (
        <li key={e.type === 'DISPATCH' ? `DISPATCH-${e.id}` : `${e.type}-${e.text}`} data-type={e.type}>
          {tickerItemText(e, zone, nowS)}
        </li>
      ))}
    </ul>
  );
  return (
    <Box
      className="dashboard-ticker"
      role="marquee"
      aria-label="Ticker"
      bg="dark.7"
      c="white"
      py={6}
      fz="sm"
      tabIndex={0}
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
      {...props}
    >
      <div className="dashboard-ticker-track" style={{ ['--ticker-duration' as string]: `${tickerDuration(events)}s` }}>
        {list(false)}
        {list(true)}
      </div>
    </Box>
  );
}
