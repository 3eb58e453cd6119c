import type { FastifyRequest } from 'fastify';

/** Query parameters that carry secrets: API-key passwords, reset and download tokens. */
const SECRET_PARAMS = /([?&](?:password|token|auth|key)=)[^&#]*/gi;

/** The URL with the values of secret query parameters replaced, for logs. */
export const redactUrl = (url: string) => url.replace(SECRET_PARAMS, '$1[REDACTED]');

/** Fastify's request log line, with the URL redacted (the password of API-key calls travels in it). */
export function serializeRequest(req: FastifyRequest) {
  return { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
