import { tradingEndpoints as E } from '@vpp/shared/trading/schemas';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './trading.service.ts';

export function tradingRoutes(app: App) {
  route(app, E.state, async (req) => ({ status: 'OK' as const, data: await service.tradingState(app.ctx, caller(req), req.params.id) }));
  route(app, E.backtests, async (req) => ({ status: 'OK' as const, data: await service.listBacktests(app.ctx, caller(req), req.params.id) }));
  route(app, E.startBacktest, async (req) => ({
    status: 'OK' as const,
    data: await service.startBacktest(app.ctx, caller(req), req.params.id, req.body),
  }));
  route(app, E.setPolicy, async (req) => ({ status: 'OK' as const, data: await service.setPolicy(app.ctx, caller(req), req.params.id, req.body) }));
}
