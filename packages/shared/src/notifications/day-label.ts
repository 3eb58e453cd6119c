/** The local calendar date (yyyy-mm-dd) of an instant in a time zone. */
function localDate(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

/**
 * How a notification's date reads (spec 1 §2): 'Today', 'Yesterday', or the full date, then the
 * time, all in the account's time zone.
 */
export function notificationDateLabel(epochS: number, timeZone: string, nowMs: number = Date.now()): string {
  const ms = epochS * 1000;
  const day = localDate(ms, timeZone);
  const today = localDate(nowMs, timeZone);
  const [y, m, d] = today.split('-').map(Number);
  const yesterday = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  const time = new Intl.DateTimeFormat('en-AU', { timeZone, hour: 'numeric', minute: '2-digit' }).format(ms);
  if (day === today) return `Today, ${time}`;
  if (day === yesterday) return `Yesterday, ${time}`;
  const full = new Intl.DateTimeFormat('en-AU', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(ms);
  return `${full}, ${time}`;
}
