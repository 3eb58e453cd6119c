import { marketEndpoints as E } from '@vpp/shared/market/endpoints';
import { MARKET_MESSAGES } from '@vpp/shared/market/rules';
import { badRequest, errorBody } from '../../platform/errors.ts';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './market.service.ts';

/** Largest price file the API takes (a month of one region's PRICE_AND_DEMAND is about 0.5 MB; larger archives go through the command line). */
export const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

export async function marketRoutes(app: App) {
  route(app, E.powerstationPrices, async (req) => ({
    status: 'OK' as const,
    ...(await service.powerstationPrices(app.ctx, caller(req), req.params.id, req.query)),
  }));
  route(app, E.dispatchPrice, async (req) => ({ status: 'OK' as const, ...(await service.dispatchPrice(app.ctx, caller(req), req.query)) }));
  // The file travels as the body itself: the parsers for it live in this scope only, so no other
  // route takes a binary body.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/octet-stream', 'application/zip', 'text/csv'],
      { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
      (_req, body, done) => done(null, body),
    );
    // The app's own answer to a body over the limit names the 1 MB of JSON bodies: this one names the file's.
    scope.setErrorHandler((err, _req, reply) => {
      if ((err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send(errorBody('bad_request', MARKET_MESSAGES.fileTooLarge));
      throw err;
    });
    route(scope as App, E.importPrices, async (req) => {
      const body: unknown = req.body;
      const bytes = Buffer.isBuffer(body) ? body : typeof body === 'string' && body !== '' ? Buffer.from(body) : null;
      if (!bytes?.length) throw badRequest(MARKET_MESSAGES.notAFile);
      return { status: 'OK' as const, data: await service.importPriceFile(app.ctx, caller(req), req.query.fileName ?? 'the file', bytes) };
    });
  });
}
