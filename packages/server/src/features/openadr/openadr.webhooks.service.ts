import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';

// Webhooks are not a door into the network (issue 31 item 5): a callback goes only to https (plain
// http only to an allowed host), never to a loopback, link-local, private or otherwise special
// address unless its host is allowed, to the address resolved once and checked, within 5 s, with no
// redirect followed and at most REPLY_LIMIT bytes of reply read.

export const CALLBACK_TIMEOUT_MS = 5000;
export const REPLY_LIMIT = 64 * 1024;

/** Why a callback URL may not be used, naming what is wrong; null when it may. */
export function callbackUrlProblem(raw: string, allow: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'callbackUrl is not a URL.';
  }
  const host = hostOf(url);
  if (url.username || url.password) return 'callbackUrl must not carry credentials.';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowed(host, allow)) return null;
  return url.protocol === 'http:' ? 'callbackUrl must use https (plain http only to a host in OPENADR_CALLBACK_ALLOW).' : 'callbackUrl must use https.';
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
const allowed = (host: string, allow: readonly string[]) => allow.includes(host);

/** Whether an address is an ordinary public one (not loopback, private, link-local, multicast, reserved…). */
export function publicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

export interface DeliveryResult {
  ok: boolean;
  /** What the console records: the status, or why nothing was delivered. */
  result: string;
}

/**
 * POSTs one notification to a callback: the host resolved once here, every address checked, and
 * the connection made to the checked address (so a second lookup cannot point it elsewhere).
 */
export async function postCallback(rawUrl: string, bearerToken: string | null, body: unknown, allow: readonly string[]): Promise<DeliveryResult> {
  const problem = callbackUrlProblem(rawUrl, allow);
  if (problem) return { ok: false, result: problem };
  const url = new URL(rawUrl);
  const host = hostOf(url);
  let address: string;
  let family: number;
  try {
    const found = ipaddr.isValid(host) ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }] : await lookup(host, { all: true });
    if (!found.length) return { ok: false, result: 'The callback host did not resolve.' };
    if (!allowed(host, allow) && !found.every((a) => publicAddress(a.address))) {
      return { ok: false, result: 'The callback host resolves to a private, loopback or link-local address.' };
    }
    address = found[0].address;
    family = found[0].family;
  } catch {
    return { ok: false, result: 'The callback host did not resolve.' };
  }
  const payload = JSON.stringify(body);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<DeliveryResult>((resolve) => {
    let settled = false;
    const done = (r: DeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(bearerToken ? { authorization: `Bearer ${bearerToken}` } : {}),
        },
        // The checked address, whatever the resolver would say now; TLS still checks the host's name.
        lookup: (_host, opts, cb) => {
          if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else cb(null, address, family);
        },
        servername: ipaddr.isValid(host) ? undefined : host,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > REPLY_LIMIT) done({ ok: false, result: `The callback's reply was larger than ${REPLY_LIMIT} bytes.` });
        });
        res.on('end', () => {
          // A redirect is not followed: it is a failure to deliver.
          done({ ok: status >= 200 && status < 300, result: `HTTP ${status}` });
        });
        res.on('error', () => done({ ok: false, result: 'The callback closed the connection.' }));
      },
    );
    const timer = setTimeout(() => done({ ok: false, result: `The callback did not answer within ${CALLBACK_TIMEOUT_MS / 1000} s.` }), CALLBACK_TIMEOUT_MS);
    req.on('error', () => done({ ok: false, result: 'The callback could not be reached.' }));
    req.end(payload);
  });
}
