import { startOfPeriod } from '@vpp/shared/time';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { createExport } from './exports.service.ts';

/**
 * The demo's exports: once the backfill has reached `to`, the retailer asks for yesterday's
 * operational data of its first VPP (every 30 minutes) and its customers, through the same code as
 * the API's; the worker writes the files, so the page opens on two finished exports.
 */
export async function seedDemoExports(ctx: AppContext, user: AuthUser, vpp: number, to: number): Promise<void> {
  const zone = user.row.timezone ?? 'Australia/Sydney';
  const end = startOfPeriod(to, 'day', zone);
  const start = startOfPeriod(end - 3600, 'day', zone);
  await createExport(ctx, user, { type: 'customer', params: {} });
  await createExport(ctx, user, {
    type: 'operational',
    params: { start, end, powerstation: vpp, queries: ['meter_power', 'solar_power', 'battery_power', 'remaining_charge'], interval: '30m' },
  });
}
