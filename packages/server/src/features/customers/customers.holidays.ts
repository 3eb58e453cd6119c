import Holidays from 'date-holidays';

// Public holidays of each Australian state, from date-holidays (a maintained library of holiday
// rules, including substitute days); each state's year is computed once.

const byState = new Map<string, Holidays>();
const cache = new Map<string, Set<string>>();

/** The public holidays (YYYY-MM-DD) of an Australian state or territory in a year. */
export function publicHolidays(state: string, year: number): Set<string> {
  const key = `${state}|${year}`;
  let dates = cache.get(key);
  if (!dates) {
    let hd = byState.get(state);
    if (!hd) {
      hd = new Holidays('AU', state);
      byState.set(state, hd);
    }
    dates = new Set(
      hd
        .getHolidays(year)
        .filter((h) => h.type === 'public')
        .map((h) => h.date.slice(0, 10)),
    );
    cache.set(key, dates);
  }
  return dates;
}

/** Whether a date (YYYY-MM-DD) is a public holiday in the state. */
export const isPublicHoliday = (state: string, date: string) => publicHolidays(state, Number(date.slice(0, 4))).has(date);
