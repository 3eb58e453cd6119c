import { controlCharacterMessage, findControlCharacter } from '@vpp/shared/api/inputs';
import { openadrEndpoints as E } from '@vpp/shared/openadr/endpoints';
import { OPENADR_BASE_PATH, objectId, reportInput, resourceInput, searchQuery, subscriptionInput, venInput } from '@vpp/shared/openadr/schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { nowS } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import { queueVenSync } from './openadr.jobs.ts';
import * as service from './openadr.service.ts';
import { OAuthError, type VtnClient, VtnProblem } from './openadr.service.ts';
import { VEN_CALLBACK_PATH, validCallbackToken } from './openadr.ven.service.ts';

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

// Methods (not function properties), so that each object type's service functions, with their own
// id and body parameters, fit one shape: (ctx, client, ...ids, query or body).
interface ObjectOps {
  kind: string;
  search(ctx: AppContext, client: VtnClient, ...args: unknown[]): Promise<unknown>;
  get(ctx: AppContext, client: VtnClient, ...args: unknown[]): Promise<unknown>;
}
interface WriteOps {
  input: z.ZodType;
  create(ctx: AppContext, client: VtnClient, ...args: unknown[]): Promise<unknown>;
  update(ctx: AppContext, client: VtnClient, ...args: unknown[]): Promise<unknown>;
  delete(ctx: AppContext, client: VtnClient, ...args: unknown[]): Promise<unknown>;
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

      /**
       * One OpenADR object type's five operations (search, get, create, update, delete) at `path`,
       * its id parameters `names` (a resource's are its VEN's and its own). A type the console alone
       * writes (programs, events) has no `write`: its POST, PUT and DELETE are refused.
       */
      const objectRoutes = (path: string, names: string[], ops: ObjectOps, write?: WriteOps) => {
        const parents = names.slice(0, -1);
        const item = `${path}/:${names.at(-1)}`;
        vtn.get(
          path,
          options,
          as(200, (c, req) => ops.search(ctx, c, ...ids(req, ...parents), query(req))),
        );
        vtn.get(
          item,
          options,
          as(200, (c, req) => ops.get(ctx, c, ...ids(req, ...names))),
        );
        if (!write) {
          const refuse = as(200, async (c) => service.refuseProgramWrite(c, ops.kind as 'program' | 'event'));
          vtn.post(
            path,
            options,
            as(201, async (c) => service.refuseProgramWrite(c, ops.kind as 'program' | 'event')),
          );
          vtn.put(item, options, refuse);
          vtn.delete(item, options, refuse);
          return;
        }
        const body = (req: FastifyRequest) => parse(write.input, req.body, 'body');
        vtn.post(
          path,
          options,
          as(201, (c, req) => write.create(ctx, c, ...ids(req, ...parents), body(req))),
        );
        vtn.put(
          item,
          options,
          as(200, (c, req) => write.update(ctx, c, ...ids(req, ...names), body(req))),
        );
        vtn.delete(
          item,
          options,
          as(200, (c, req) => write.delete(ctx, c, ...ids(req, ...names))),
        );
      };

      objectRoutes('/programs', ['programID'], { kind: 'program', search: service.searchPrograms, get: service.getProgram });
      objectRoutes('/events', ['eventID'], { kind: 'event', search: service.searchEvents, get: service.getEvent });
      objectRoutes(
        '/reports',
        ['reportID'],
        { kind: 'report', search: service.searchReports, get: service.getReport },
        { input: reportInput, create: service.createReport, update: service.updateReport, delete: service.deleteReport },
      );
      objectRoutes(
        '/subscriptions',
        ['subscriptionID'],
        { kind: 'subscription', search: service.searchSubscriptions, get: service.getSubscription },
        { input: subscriptionInput, create: service.createSubscription, update: service.updateSubscription, delete: service.deleteSubscription },
      );
      objectRoutes(
        '/vens',
        ['venID'],
        { kind: 'ven', search: service.searchVens, get: service.getVen },
        { input: venInput, create: service.createVen, update: service.updateVen, delete: service.deleteVen },
      );
      objectRoutes(
        '/vens/:venID/resources',
        ['venID', 'resourceID'],
        { kind: 'resource', search: service.searchResources, get: service.getResource },
        { input: resourceInput, create: service.createResource, update: service.updateResource, delete: service.deleteResource },
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

/**
 * The console as a VEN: the VTN's notifications arrive here (the subscription's callbackUrl, with
 * its bearerToken). A notification only wakes the poll, which reads the VTN itself: what a
 * notification says is never taken on trust.
 */
export function venCallbackRoute(app: App) {
  app.post(VEN_CALLBACK_PATH, { config: { auth: 'public' }, schema: { hide: true }, bodyLimit: VTN_BODY_LIMIT }, async (req, reply) => {
    if (!app.ctx.config.openadrVtn) return problem(reply, 404, 'This console is not a VEN of any VTN (OPENADR_VTN_URL is not set).');
    if (!validCallbackToken(app.ctx, req.headers.authorization))
      return problem(reply, 401, 'The bearer token is not the one this console gave its subscriptions.');
    await queueVenSync(app.ctx.db, nowS());
    return reply.code(200).send({ status: 'OK' });
  });
}
