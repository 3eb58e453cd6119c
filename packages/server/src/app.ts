import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import { controlCharacterMessage, findControlCharacter } from '@vpp/shared/api/inputs';
import { metaReply } from '@vpp/shared/auth/meta';
import { APP_VERSION } from '@vpp/shared/constants';
import { MESSAGES } from '@vpp/shared/messages';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ping } from './db/database.ts';
import { isUniqueViolation } from './db/unique.ts';
import { AUTHENTICATOR, FEATURES } from './features/index.ts';
import { basemapOf, registerBasemap } from './platform/basemap.ts';
import { BROTLI_OPTIONS, GZIP_OPTIONS } from './platform/compression.ts';
import type { AppContext } from './platform/context.ts';
import { ApiError, badRequest, errorBody, frameworkError } from './platform/errors.ts';
import { guard } from './platform/guard.ts';
import type { App } from './platform/http.ts';
import { serializeRequest } from './platform/redact.ts';

/** Builds the server (API, docs and the web app) without listening. */
export async function buildApp(ctx: AppContext, opts: { logger?: FastifyServerOptions['logger'] } = {}): Promise<App> {
  const app = Fastify({
    // Secrets never reach the log: credential headers, and secret query parameters (serializeRequest).
    logger:
      opts.logger === false
        ? false
        : {
            level: ctx.config.LOG_LEVEL,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
            serializers: { req: serializeRequest },
          },
    trustProxy: ctx.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // A URL that cannot be decoded never reaches a route; its reply is the API's envelope too.
    frameworkErrors: (err, _req, reply) => {
      (reply as import('fastify').FastifyReply).code(400).send(frameworkError(400, (err as { code?: string }).code));
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Every input is checked for control characters before its schema (a NUL stops PostgreSQL and
  // has no place in a name, a search or a password), so every route inherits the rule.
  app.setValidatorCompiler((route) => {
    const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
    const part = route.httpPart === 'querystring' ? 'query' : (route.httpPart ?? 'input');
    return (data: unknown) => {
      const at = findControlCharacter(data, '');
      return at === null ? validate(data) : { error: badRequest(controlCharacterMessage(at || part)) };
    };
  });
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('ctx', ctx);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiError) return reply.code(err.statusCode).send(errorBody(err.code, err.message, err.details));
    if (hasZodFastifySchemaValidationErrors(err)) {
      // The schemas carry the spec's own texts (spec 1 §8), which the client shows as they come.
      const message = [...new Set(err.validation.map((v) => v.message ?? 'Invalid input.'))].join(' ');
      return reply.code(400).send(errorBody('bad_request', message));
    }
    // A unique index that a service did not expect to meet: still the caller's conflict, never a 500.
    if (isUniqueViolation(err)) return reply.code(409).send(errorBody('conflict', MESSAGES.savedMeanwhile));
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    // The framework's own messages can quote the input (a body that is not JSON, a bad URL): answer
    // ours, which never echo what was sent.
    if (status >= 400 && status < 500) {
      const code = err instanceof SyntaxError ? 'FST_ERR_CTP_INVALID_JSON_BODY' : (err as { code?: string }).code;
      return reply.code(status).send(frameworkError(status, code));
    }
    req.log.error(err);
    return reply.code(500).send(errorBody('internal_error', 'Something went wrong on the server.'));
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        // The built index.html's inline first-paint scripts are allowed by their hashes, and no other inline script.
        'script-src': ["'self'", "'wasm-unsafe-eval'", ...inlineScriptHashes(ctx.config.webDist)],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'worker-src': ["'self'", 'blob:'],
        'connect-src': [
          "'self'",
          ...(ctx.config.API_BASE_URL ? [ctx.config.API_BASE_URL] : []),
          ...(ctx.config.ANALYTICS_DOMAIN ? [new URL(ctx.config.ANALYTICS_URL).origin] : []),
          // Map tiles and a basemap style of another server (its tiles, glyphs and sprites on the same origin).
          ...[ctx.config.MAP_TILE_URL, ctx.config.BASEMAP_STYLE_URL].flatMap((u) => (u ? [new URL(u.replace(/[{}]/g, '')).origin] : [])),
        ],
        // The support page frames the external contact form, and nothing else may be framed.
        'frame-src': ["'self'", ...(ctx.config.SUPPORT_FORM_URL ? [new URL(ctx.config.SUPPORT_FORM_URL).origin] : [])],
        'upgrade-insecure-requests': null,
      },
    },
  });
  // The console uses no camera, microphone, location, payment or USB: the browser may refuse them all.
  app.addHook('onSend', async (_req, reply) => {
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()');
  });
  // Replies over 1 KB travel compressed when the client accepts it: the heat map's 50,000 nodes are
  // 3.6 MB of JSON and under 1 MB compressed. Brotli at quality 1, gzip at level 1
  // (platform/compression.ts). A reply compressed already (the events CSV, compressed in its
  // streaming worker) says so in its Content-Encoding and passes as it is.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
    brotliOptions: BROTLI_OPTIONS,
    zlibOptions: GZIP_OPTIONS,
  });
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      info: { title: 'VPP Console API', version: APP_VERSION, description: 'The API the console calls; every route checks its permission.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  // The API: every route inside is authenticated and permission-checked by the guard.
  await app.register(async (api) => {
    // API replies are the caller's own and live (tokens, keys, data): no cache may keep them.
    api.addHook('onSend', async (_req, reply) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
    await guard(api, AUTHENTICATOR);
    const typed = api.withTypeProvider<ZodTypeProvider>() as App;
    typed.get('/healthz', { config: { auth: 'public' }, schema: { hide: true } }, async () => {
      await ping(ctx.db);
      return { status: 'OK', database: ctx.dialect };
    });
    typed.get('/meta.json', { config: { auth: 'public' }, schema: { tags: ['meta'], response: { 200: metaReply } } }, async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      const { ANALYTICS_DOMAIN: domain, ANALYTICS_URL: endpoint } = ctx.config;
      return {
        version: APP_VERSION,
        demo: ctx.config.demo,
        mapTileUrl: ctx.config.MAP_TILE_URL ?? null,
        basemap: basemapOf(ctx.config),
        analytics: domain ? { domain, endpoint } : null,
      };
    });
    for (const feature of FEATURES) await feature.routes?.(typed);
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The reference page runs an inline bootstrap script: its routes alone allow inline scripts.
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_req, reply) => {
      reply.header(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:",
      );
    });
    await docs.register(scalar, { routePrefix: '/api/docs', configuration: { url: '/api/openapi.json', withDefaultFonts: false } });
  });

  registerBasemap(app, ctx.config);
  registerWebApp(app, ctx.config.webDist, ctx.config.demo);
  return app;
}

/** The CSP hashes of the inline scripts of the built web app's index.html (none without a build). */
export function inlineScriptHashes(dist: string): string[] {
  const file = path.join(dist, 'index.html');
  if (!fs.existsSync(file)) return [];
  const html = fs.readFileSync(file, 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}

/** Serves the built web app; any other GET that asks for HTML gets index.html, whose router shows the 404 page. */
function registerWebApp(app: App, dist: string, demo: boolean) {
  const indexFile = path.join(dist, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: dist,
      // Source maps give away the whole front-end source: only the demo serves them (issue 32, item 7).
      allowedPath: (pathName) => demo || !pathName.endsWith('.map'),
      setHeaders: (res, file) => {
        res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const wantsHtml = (req.headers.accept ?? '').includes('text/html');
    if (hasWeb && (req.method === 'GET' || req.method === 'HEAD') && wantsHtml) {
      return reply.code(200).type('text/html').header('cache-control', 'no-cache').send(fs.readFileSync(indexFile));
    }
    return reply.code(404).send(errorBody('not_found', `There is no ${req.method} ${req.url.split('?')[0].slice(0, 200)}.`));
  });
}
