import {
  controlCharacterMessage,
  openadrEndpoints as E,
  findControlCharacter,
  OPENADR_BASE_PATH,
  objectId,
  reportInput,
  resourceInput,
  searchQuery,
  subscriptionInput,
  venInput,
} from '@vpp/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/unique.ts';
import { ApiError } from '../../platform/errors.ts';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './openadr.service.ts';
import { OAuthError, type VtnClient, VtnProblem } from './openadr.service.ts';

const PROBLEM = 'application/problem+json';
/** The largest body the VTN reads (a report of many resources and intervals fits; 10 MB does not). */
export const VTN_BODY_LIMIT = 1024 * 1024;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
};

function problem(reply: FastifyReply, status: number, detail: string) {
  return reply
    .code(status)
    .type(PROBLEM)
    .send({ type: 'about:blank', title: TITLES[status] ?? 'Error', status, detail });
}

/** Parses one part of a request against its schema; a refusal names the field (and never quotes the input). */
function parse<S extends z.ZodType>(schema: S, data: unknown, part: string): z.output<S> {
  const at = findControlCharacter(data, '');
  if (at !== null) throw new VtnProblem(400, 'Bad Request', controlCharacterMessage(at ? `${part}.${at}` : part));
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = [part, ...issue.path.map(String)].join('.');
  throw new VtnProblem(400, 'Bad Request', `${field}: ${issue.message}`);
}

const idParam = (name: string) => z.object({ [name]: objectId });
const ids = (req: FastifyRequest, ...names: string[]) => {
  const params = req.params as Record<string, unknown>;
  return names.map((n) => parse(idParam(n), { [n]: params[n] }, 'path')[n] as string);
};

/**
 * The VTN at /openadr3/3.0.1: OpenADR's own paths, bearer tokens from its token endpoint, and
 * problem replies. Its routes are public to the console's guard: each checks its OAuth client.
 */
export function vtnRoutes(app: App) {
  const ctx = app.ctx;
  return app.register(
    async (vtn) => {
      vtn.setErrorHandler((err, req, reply) => {
        if (err instanceof VtnProblem) return problem(reply, err.status, err.detail);
        if (err instanceof OAuthError) return reply.code(err.status).send({ error: err.error, error_description: err.description });
        if (err instanceof ApiError) return problem(reply, err.statusCode, err.message);
        if (isUniqueViolation(err)) return problem(reply, 409, 'The object was written meanwhile with the same name.');
        const status = (err as { statusCode?: number }).statusCode ?? 500;
        if (status >= 400 && status < 500) {
          const detail =
            status === 413
              ? `The body is larger than ${VTN_BODY_LIMIT} bytes.`
              : status === 415
                ? 'The body must be application/json.'
                : 'The request is malformed.';
          return problem(reply, status, detail);
        }
        req.log.error(err);
        return problem(reply, 500, 'Something went wrong on the server.');
      });
      vtn.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });
      const options = { config: { auth: 'public' as const }, schema: { hide: true }, bodyLimit: VTN_BODY_LIMIT };
      const as =
        <T>(status: number, h: (client: VtnClient, req: FastifyRequest) => Promise<T>) =>
        async (req: FastifyRequest, reply: FastifyReply) => {
          const client = await service.authenticate(ctx, req.headers.authorization);
          const out = await h(client, req);
          reply.header('cache-control', 'no-store');
          return reply.code(status).send(out);
        };
      const query = (req: FastifyRequest) => parse(searchQuery, req.query, 'query');

      vtn.post('/auth/token', options, async (req, reply) => {
        const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
        const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
        let clientId = str(body.client_id);
        let clientSecret = str(body.client_secret);
        // RFC 6749 §2.3.1: the client's credentials may come as HTTP Basic instead.
        const basic = req.headers.authorization?.startsWith('Basic ') ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString('utf8') : '';
        if (basic.includes(':')) {
          clientId = decodeURIComponent(basic.slice(0, basic.indexOf(':')));
          clientSecret = decodeURIComponent(basic.slice(basic.indexOf(':') + 1));
        }
        const out = await service.issueToken(ctx, { grantType: str(body.grant_type), clientId, clientSecret, scope: str(body.scope), address: req.ip });
        reply.header('cache-control', 'no-store');
        return reply.send(out);
      });

      vtn.get(
        '/programs',
        options,
        as(200, (c, req) => service.searchPrograms(ctx, c, query(req))),
      );
      vtn.get(
        '/programs/:programID',
        options,
        as(200, (c, req) => service.getProgram(ctx, c, ids(req, 'programID')[0])),
      );
      vtn.post(
        '/programs',
        options,
        as(201, async (c) => service.refuseProgramWrite(c, 'program')),
      );
      vtn.put(
        '/programs/:programID',
        options,
        as(200, async (c) => service.refuseProgramWrite(c, 'program')),
      );
      vtn.delete(
        '/programs/:programID',
        options,
        as(200, async (c) => service.refuseProgramWrite(c, 'program')),
      );

      vtn.get(
        '/events',
        options,
        as(200, (c, req) => service.searchEvents(ctx, c, query(req))),
      );
      vtn.get(
        '/events/:eventID',
        options,
        as(200, (c, req) => service.getEvent(ctx, c, ids(req, 'eventID')[0])),
      );
      vtn.post(
        '/events',
        options,
        as(201, async (c) => service.refuseProgramWrite(c, 'event')),
      );
      vtn.put(
        '/events/:eventID',
        options,
        as(200, async (c) => service.refuseProgramWrite(c, 'event')),
      );
      vtn.delete(
        '/events/:eventID',
        options,
        as(200, async (c) => service.refuseProgramWrite(c, 'event')),
      );

      vtn.get(
        '/reports',
        options,
        as(200, (c, req) => service.searchReports(ctx, c, query(req))),
      );
      vtn.get(
        '/reports/:reportID',
        options,
        as(200, (c, req) => service.getReport(ctx, c, ids(req, 'reportID')[0])),
      );
      vtn.post(
        '/reports',
        options,
        as(201, (c, req) => service.createReport(ctx, c, parse(reportInput, req.body, 'body'))),
      );
      vtn.put(
        '/reports/:reportID',
        options,
        as(200, (c, req) => service.updateReport(ctx, c, ids(req, 'reportID')[0], parse(reportInput, req.body, 'body'))),
      );
      vtn.delete(
        '/reports/:reportID',
        options,
        as(200, (c, req) => service.deleteReport(ctx, c, ids(req, 'reportID')[0])),
      );

      vtn.get(
        '/subscriptions',
        options,
        as(200, (c, req) => service.searchSubscriptions(ctx, c, query(req))),
      );
      vtn.get(
        '/subscriptions/:subscriptionID',
        options,
        as(200, (c, req) => service.getSubscription(ctx, c, ids(req, 'subscriptionID')[0])),
      );
      vtn.post(
        '/subscriptions',
        options,
        as(201, (c, req) => service.createSubscription(ctx, c, parse(subscriptionInput, req.body, 'body'))),
      );
      vtn.put(
        '/subscriptions/:subscriptionID',
        options,
        as(200, (c, req) => service.updateSubscription(ctx, c, ids(req, 'subscriptionID')[0], parse(subscriptionInput, req.body, 'body'))),
      );
      vtn.delete(
        '/subscriptions/:subscriptionID',
        options,
        as(200, (c, req) => service.deleteSubscription(ctx, c, ids(req, 'subscriptionID')[0])),
      );

      vtn.get(
        '/vens',
        options,
        as(200, (c, req) => service.searchVens(ctx, c, query(req))),
      );
      vtn.get(
        '/vens/:venID',
        options,
        as(200, (c, req) => service.getVen(ctx, c, ids(req, 'venID')[0])),
      );
      vtn.post(
        '/vens',
        options,
        as(201, (c, req) => service.createVen(ctx, c, parse(venInput, req.body, 'body'))),
      );
      vtn.put(
        '/vens/:venID',
        options,
        as(200, (c, req) => service.updateVen(ctx, c, ids(req, 'venID')[0], parse(venInput, req.body, 'body'))),
      );
      vtn.delete(
        '/vens/:venID',
        options,
        as(200, (c, req) => service.deleteVen(ctx, c, ids(req, 'venID')[0])),
      );
      vtn.get(
        '/vens/:venID/resources',
        options,
        as(200, (c, req) => service.searchResources(ctx, c, ids(req, 'venID')[0], query(req))),
      );
      vtn.get(
        '/vens/:venID/resources/:resourceID',
        options,
        as(200, (c, req) => service.getResource(ctx, c, ...(ids(req, 'venID', 'resourceID') as [string, string]))),
      );
      vtn.post(
        '/vens/:venID/resources',
        options,
        as(201, (c, req) => service.createResource(ctx, c, ids(req, 'venID')[0], parse(resourceInput, req.body, 'body'))),
      );
      vtn.put(
        '/vens/:venID/resources/:resourceID',
        options,
        as(200, (c, req) => {
          const [ven, res] = ids(req, 'venID', 'resourceID');
          return service.updateResource(ctx, c, ven, res, parse(resourceInput, req.body, 'body'));
        }),
      );
      vtn.delete(
        '/vens/:venID/resources/:resourceID',
        options,
        as(200, (c, req) => service.deleteResource(ctx, c, ...(ids(req, 'venID', 'resourceID') as [string, string]))),
      );
    },
    { prefix: OPENADR_BASE_PATH },
  );
}

/** The console's OpenADR screen. */
export function openadrConsoleRoutes(app: App) {
  route(app, E.overview, async (req) => ({
    status: 'OK' as const,
    data: await service.overview(app.ctx, caller(req).organisationId, `${req.protocol}://${req.host}`),
  }));
  route(app, E.setVenVpps, async (req) => {
    await service.setVenVpps(app.ctx, caller(req).organisationId, req.params.id, req.body.vppIds);
    return { status: 'OK' as const };
  });
}
