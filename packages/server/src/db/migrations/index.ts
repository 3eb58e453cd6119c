import type { Migration } from 'kysely';
import { platform } from './001-platform.ts';
import { accountPlatform } from './002-account-platform.ts';
import { fleet } from './003-fleet.ts';
import { vpps } from './004-vpps.ts';
import { portal } from './005-portal.ts';
import { jobProgress } from './006-job-progress.ts';
import { siteLabels } from './007-site-labels.ts';
import { authHardening } from './008-auth-hardening.ts';
import { market } from './009-market.ts';
import { dispatches } from './010-dispatches.ts';
import { support } from './011-support.ts';
import { dispatchEvents } from './012-dispatch-events.ts';
import { dispatchSettlements } from './013-dispatch-settlements.ts';
import { kitDesigner } from './014-kit-designer.ts';
import { gridOutages } from './016-grid-outages.ts';
import { curtailments } from './017-curtailments.ts';
import { customersPlans } from './018-customers-plans.ts';
import { billing } from './019-billing.ts';
import { dashboards } from './020-dashboards.ts';
import { exportJobs } from './021-exports.ts';
import { curtailmentCredits } from './022-curtailment-credits.ts';
import { searchTrigram } from './023-search-trigram.ts';
import { compactHistory } from './024-compact-history.ts';
import { openReadings } from './025-open-readings.ts';
import { devices } from './029-devices.ts';
import { weather } from './031-weather.ts';
import { measurementRert } from './033-measurement-rert.ts';
import { priceForecasts } from './034-price-forecasts.ts';
import { commandPrecedence } from './035-command-precedence.ts';
import { setpointRemoval } from './036-setpoint-removal.ts';
import { openadr } from './038-openadr.ts';
import { trading } from './040-trading.ts';
import { tradingBacktests } from './041-trading-backtests.ts';
import { membershipHistory } from './044-membership-history.ts';
import { commandWindows } from './045-command-windows.ts';
import { openadrVen } from './048-openadr-ven.ts';

/** Every migration, in order; names sort as they run. */
export const migrations: Record<string, Migration> = {
  '001-platform': platform,
  '002-account-platform': accountPlatform,
  '003-fleet': fleet,
  '004-vpps': vpps,
  '005-portal': portal,
  '006-job-progress': jobProgress,
  '007-site-labels': siteLabels,
  '008-auth-hardening': authHardening,
  '009-market': market,
  '010-dispatches': dispatches,
  '011-support': support,
  '012-dispatch-events': dispatchEvents,
  '013-dispatch-settlements': dispatchSettlements,
  '014-kit-designer': kitDesigner,
  '016-grid-outages': gridOutages,
  '017-curtailments': curtailments,
  '018-customers-plans': customersPlans,
  '019-billing': billing,
  '020-dashboards': dashboards,
  '021-exports': exportJobs,
  '022-curtailment-credits': curtailmentCredits,
  '023-search-trigram': searchTrigram,
  '024-compact-history': compactHistory,
  '025-open-readings': openReadings,
  '029-devices': devices,
  '031-weather': weather,
  '033-measurement-rert': measurementRert,
  '034-price-forecasts': priceForecasts,
  '035-command-precedence': commandPrecedence,
  '036-setpoint-removal': setpointRemoval,
  '038-openadr': openadr,
  '040-trading': trading,
  '041-trading-backtests': tradingBacktests,
  '044-membership-history': membershipHistory,
  '045-command-windows': commandWindows,
  '048-openadr-ven': openadrVen,
};
