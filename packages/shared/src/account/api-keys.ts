import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { recordId, tooLongMessage } from '../api/inputs.ts';
import { openadrScopesField } from '../openadr/schemas.ts';
import { PERMISSIONS } from '../permissions/registry.ts';

/** VALID, REVOKING while the revoke call is under way (in the browser), then REVOKED. */
export const API_KEY_STATUSES = ['VALID', 'REVOKING', 'REVOKED'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/** Every API key starts with this, so that a bearer key is never mistaken for a JWT. */
export const API_KEY_PREFIX = 'vppk_';

export const API_KEY_MESSAGES = {
  nameRequired: 'You must provide a name.',
  nameTooLong: 'The name can have at most 100 characters.',
  passwordRequired: 'Enter your password.',
  passwordRejected: 'Incorrect password.',
  copiedTitle: 'Key Copied',
  copied: 'Your new API key has been copied to your clipboard.',
  /** The 403 of account-security calls (users, keys, passwords, two-factor, account settings) made with a key. */
  sessionRequired: 'API keys cannot manage users, API keys, passwords, two-factor authentication or account settings. Sign in to the console to do this.',
  scopesLabel: 'Scopes',
  scopesDescription: 'What the key may do: your permissions to give it. Read-only (the view permissions) unless you choose more.',
  /** The 403 of a key whose scopes do not open the call, although its owner could make it. */
  openadrScopesAdminOnly: 'Only an administrator can give a key OpenADR scopes.',
  scopeMissing: 'This API key’s scopes do not allow this call. Create a key with the scope it needs.',
  /** The 403 of a call that changes something, made with a key whose scopes only view. */
  readOnlyKey: 'This API key is read-only: its scopes only view, and this call makes a change. Create a key with a scope that allows it.',
} as const;

/** The refusal of a scope the key's owner does not hold themselves, naming it. */
export const scopeNotHeldMessage = (p: string) => `You may not give an API key ${p}, because you do not hold it yourself.`;

/** The refusal of one allow-list entry, naming it. */
export const ipParseFailure = (entry: string) =>
  `'${entry}' is not an IP address, a CIDR range (10.0.0.0/8) or an IPv4 address with a subnet mask (10.0.0.0/255.0.0.0).`;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** One allow-list entry as a range: a single IP, a CIDR range, or an IPv4 address with a subnet mask; null when it is none. */
export function parseAllowEntry(entry: string): Range | null {
  const [addr, suffix, extra] = entry.split('/');
  if (extra !== undefined) return null;
  if (suffix === undefined) {
    if (ipaddr.IPv4.isValidFourPartDecimal(addr)) return [ipaddr.IPv4.parse(addr), 32];
    if (ipaddr.IPv6.isValid(addr)) return [ipaddr.IPv6.parse(addr), 128];
    return null;
  }
  if (suffix.includes('.')) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(addr) || !ipaddr.IPv4.isValidFourPartDecimal(suffix)) return null;
    const prefix = ipaddr.IPv4.parse(suffix).prefixLengthFromSubnetMask();
    return prefix === null ? null : [ipaddr.IPv4.parse(addr), prefix];
  }
  if (ipaddr.IPv4.isValidCIDRFourPartDecimal(entry)) return ipaddr.IPv4.parseCIDR(entry);
  if (ipaddr.IPv6.isValidCIDR(entry)) return ipaddr.IPv6.parseCIDR(entry);
  return null;
}

/** The allow-list as entered: entries split on whitespace, blanks dropped (an empty list allows every address). */
export function splitAllowList(input: string | readonly string[]): string[] {
  return (typeof input === 'string' ? [input] : input).flatMap((s) => s.split(/\s+/)).filter(Boolean);
}

/** The first entry that is not an address or range, or null when all are. */
export function findBadAllowEntry(entries: readonly string[]): string | null {
  return entries.find((e) => parseAllowEntry(e) === null) ?? null;
}

/** Whether an address (IPv4, IPv6, or IPv4-mapped IPv6 as Node reports it) is allowed by the list. */
export function addressAllowed(entries: readonly string[], address: string): boolean {
  if (entries.length === 0) return true;
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return entries.some((e) => {
    const range = parseAllowEntry(e);
    return range !== null && range[0].kind() === ip.kind() && ip.match(range as [typeof ip, number]);
  });
}

export const apiKey = z.object({
  keyId: z.number(),
  keyName: z.string(),
  ipWhitelist: z.array(z.string()),
  status: z.enum(API_KEY_STATUSES),
  /** The permissions the key may use (registry names), chosen at creation; it acts with those its owner still holds. */
  scopes: z.array(z.string()),
  /** The OpenADR 3 scopes of the key as a VTN client (docs/openadr.md), given by an administrator. */
  openadrScopes: z.array(z.string()),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
export type ApiKey = z.infer<typeof apiKey>;

export const apiKeysReply = okReply(z.object({ keys: z.array(apiKey) }));

/** The reply to a new key: the only time the secret `key` is ever sent. */
export const newApiKeyReply = okReply(apiKey.extend({ key: z.string() }));

export const createApiKeyBody = z.object({
  keyName: z.string({ error: API_KEY_MESSAGES.nameRequired }).trim().min(1, API_KEY_MESSAGES.nameRequired).max(100, API_KEY_MESSAGES.nameTooLong),
  ipWhitelist: z
    .union([z.string().max(100_000), z.array(z.string().max(100)).max(1000, 'ipWhitelist can hold at most 1000 entries.')])
    .optional()
    .transform((v) => splitAllowList(v ?? [])),
  /** Permission names the owner holds; left out, the key is read-only (the owner's view permissions). */
  scopes: z.array(z.string().max(200)).max(PERMISSIONS.length).optional(),
  /** OpenADR 3 scopes for the key as a VTN client; only an administrator may give them. */
  openadrScopes: openadrScopesField.optional(),
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBody>;

/** The account password, base64-encoded in the query string (spec 1 §7). */
export const apiKeyPasswordQuery = z.object({
  password: z.string({ error: API_KEY_MESSAGES.passwordRequired }).min(1, API_KEY_MESSAGES.passwordRequired).max(4096, tooLongMessage('The password', 4096)),
});

export const apiKeyParams = z.object({ id: recordId('api-key', 'The API key id') });
