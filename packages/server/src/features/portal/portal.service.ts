import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { spendOnce } from '../../platform/downloads.ts';
import { badRequest } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { nodeDetail } from '../nodes/index.ts';

/** How long a portal link may wait before it is opened. */
export const PORTAL_TOKEN_TTL_S = 120;

/** The portal address: PORTAL_URL for a real vendor portal, otherwise the simulated one this server serves. */
export const portalUrl = (ctx: AppContext) => ctx.config.PORTAL_URL ?? `${ctx.config.publicUrl}/inverter-portal`;

/** A short-lived, single-use token opening one inverter's web portal, for a node of the caller's fleet. */
export async function issuePortalToken(ctx: AppContext, user: AuthUser, nodeId: number, inverterId: string): Promise<string> {
  const node = await nodeDetail(ctx, user, nodeId);
  const system = node.energySystems.find((es) => es.inverter.id === inverterId);
  if (!system) throw badRequest(`Node ${nodeId} has no inverter ${inverterId}.`);
  if (!system.inverter.hasWebPortal) throw badRequest(`The ${system.inverter.name} has no web portal.`);
  return new SignJWT({ node: nodeId, inverter: inverterId })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(randomUUID())
    .setSubject(String(user.id))
    .setExpirationTime(nowS() + PORTAL_TOKEN_TTL_S)
    .sign(ctx.keys.portal);
}

/** Spends a portal token: its node and inverter, or null when it is forged, expired or already used. */
export async function redeemPortalToken(ctx: AppContext, token: string): Promise<{ nodeId: number; inverterId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, ctx.keys.portal, { algorithms: ['HS256'] });
    if (typeof payload.jti !== 'string') return null;
    if (!(await spendOnce(ctx.db, `portal:${payload.jti}`))) return null;
    return { nodeId: Number(payload.node), inverterId: String(payload.inverter) };
  } catch {
    return null;
  }
}
