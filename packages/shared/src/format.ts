/** Power for display: kW, or MW with 2 decimals above 1000 kW (spec 2 §9). */
export function formatPower(kw: number | null | undefined, decimals = 2): string {
  if (kw === null || kw === undefined || Number.isNaN(kw)) return '–';
  return Math.abs(kw) > 1000 ? `${(kw / 1000).toFixed(2)} MW` : `${kw.toFixed(decimals)} kW`;
}

/** Energy for display: kWh, or MWh with 2 decimals above 1000 kWh. */
export function formatEnergy(kwh: number | null | undefined, decimals = 2): string {
  if (kwh === null || kwh === undefined || Number.isNaN(kwh)) return '–';
  return Math.abs(kwh) > 1000 ? `${(kwh / 1000).toFixed(2)} MWh` : `${kwh.toFixed(decimals)} kWh`;
}

/** The unit a whole series should use, so that every value on one axis shares it. */
export function powerScale(maxAbsKw: number): { unit: 'kW' | 'MW'; factor: number } {
  return maxAbsKw > 1000 ? { unit: 'MW', factor: 1 / 1000 } : { unit: 'kW', factor: 1 };
}

/** One formatter per time zone: making one costs about half a millisecond (a fleet's reconnect storm formats a time per node). */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** dd/MM/yyyy HH:mm in a time zone (the pickers' date format, spec 1 §1). */
export function formatDateTime(epochS: number, timeZone: string): string {
  let f = dateTimeFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-AU', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    dateTimeFormats.set(timeZone, f);
  }
  const p = f.formatToParts(new Date(epochS * 1000));
  const g = (t: string) => p.find((x) => x.type === t)?.value ?? '';
  return `${g('day')}/${g('month')}/${g('year')} ${g('hour')}:${g('minute')}`;
}

/** dd/MM/yyyy in a time zone. */
export function formatDate(epochS: number, timeZone: string): string {
  return formatDateTime(epochS, timeZone).slice(0, 10);
}

/** A duration in seconds as '1 h 25 min', '40 min' or '2 d 3 h'. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '–';
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.round((seconds % 3600) / 60);
  if (d) return `${d} d${h ? ` ${h} h` : ''}`;
  if (h) return `${h} h${m ? ` ${m} min` : ''}`;
  return `${m} min`;
}

/** A value in AUD with 2 decimals (spec 3 §9): '$1,234.50', '-$12.00'. */
export const formatAud = (v: number) => `${v < 0 ? '-' : ''}$${Math.abs(v).toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
