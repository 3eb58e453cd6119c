import { Readable } from 'node:stream';
import type { Endpoint, ReplyInputOf } from '@vpp/shared/api/endpoint';
import { errorReplySchema } from '@vpp/shared/api/envelope';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from './context.ts';
import { FairShare } from './fair-share.ts';
import { encodeJsonChunks, largestCollection, STREAM_ITEMS } from './stream-json.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** The Fastify instance every area registers its routes on, typed by the zod schemas. */
export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The request of a route, typed by its endpoint's params, query and body schemas. */
export type RouteRequest<E extends Endpoint> = FastifyRequest<{ Params: Out<E['params']>; Querystring: Out<E['query']>; Body: Out<E['body']> }>;

/** A route's handler: answers the endpoint's reply, or sends something itself through `reply`. */
export type RouteHandler<E extends Endpoint> = (
  req: RouteRequest<E>,
  reply: FastifyReply,
) => Promise<(E['reply'] extends z.ZodType ? ReplyInputOf<E> : unknown) | FastifyReply>;

const ERROR_REPLIES = {
  400: 'The input is not valid: the message says what is wrong.',
  401: 'No valid credentials (sign in, or send an API key).',
  403: 'The caller lacks the permission this operation needs.',
  404: 'No such record in the caller’s organisation.',
  429: 'Too many attempts: wait, then try again.',
} as const;

/** The failures an operation documents, each with the one error envelope. */
function errorReplies(e: Endpoint): Record<number, z.ZodType> {
  const statuses = e.auth === 'public' ? ([400, 404, 429] as const) : ([400, 401, 403, 404, 429] as const);
  return Object.fromEntries(statuses.map((s) => [s, errorReplySchema.describe(ERROR_REPLIES[s])]));
}

/**
 * Registers one endpoint of the shared contract: its method, path, schemas and permission come from
 * the definition, so the server cannot drift from what the browser calls.
 */
export function route<E extends Endpoint>(app: App, e: E & { area?: string }, handler: RouteHandler<E>): void {
  app.route({
    method: e.method,
    url: e.path,
    config: {
      auth: e.auth === 'user' ? undefined : e.auth,
      access: e.access,
      permission: e.auth === 'public' ? undefined : e.permission,
      download: e.download ?? false,
    },
    schema: {
      summary: e.summary,
      ...(e.area ? { tags: [e.area] } : {}),
      ...(e.hidden ? { hide: true } : {}),
      ...(e.params ? { params: e.params } : {}),
      ...(e.query ? { querystring: e.query } : {}),
      ...(e.body ? { body: e.body } : {}),
      response: { ...(e.reply ? { 200: e.reply } : {}), ...errorReplies(e) },
    },
    handler: e.reply ? streamingLarge(e.reply, e.heavy ? fairShared(app, handler) : handler) : (handler as never),
  });
}

/** Each server's fair share of heavy reads, from its settings. */
const shares = new WeakMap<object, FairShare>();

/** A heavy read's handler run under its user's fair share (platform/fair-share.ts). */
function fairShared<E extends Endpoint>(app: App, handler: RouteHandler<E>): RouteHandler<E> {
  return (req, reply) => {
    let share = shares.get(app.ctx);
    if (!share) {
      share = new FairShare(app.ctx.config.HEAVY_READS_PER_USER, app.ctx.config.HEAVY_READS_WAITING);
      shares.set(app.ctx, share);
    }
    return share.run(String(req.user?.id ?? req.ip), async () => handler(req, reply));
  };
}

/**
 * A large reply (a month of points, thousands of nodes) is encoded and sent in chunks, with the
 * event loop free between them; the rest go through the usual serializer.
 */
function streamingLarge<E extends Endpoint>(schema: z.ZodType, handler: RouteHandler<E>) {
  return async (req: RouteRequest<E>, reply: FastifyReply) => {
    const value = await handler(req, reply);
    if (value === reply || reply.sent || largestCollection(value) <= STREAM_ITEMS) return value;
    return reply.type('application/json; charset=utf-8').send(Readable.from(encodeJsonChunks(schema, value)));
  };
}
