/// <reference types="vite/client" />
import type { Endpoint } from '@vpp/shared/api/endpoint';
import { idResources } from '@vpp/shared/api/inputs';
import type { z } from 'zod';
import { issueInvoice } from '../features/billing/index.ts';
import { notifyUser } from '../features/notifications/index.ts';
import { type Harness, PASSWORD } from './harness.ts';

// The records of one organisation, one of each kind a path's `:id` names, made through the product's
// own calls: the generated matrices (another organisation's records, read-only keys) call every
// endpoint on them.

/** The organisation the records belong to: its id, a user with every permission, and one of its nodes. */
export interface RecordOwner {
  id: number;
  userId: number;
  auth: { authorization: string };
  nodeId: number;
}
/** What a path's `:id` names, from the shared id schema (recordId registers it). */
export const resourceOf = (e: Endpoint): string | null => {
  const id = (e.params as { shape?: Record<string, z.ZodType> } | undefined)?.shape?.id;
  return id ? (idResources.get(id)?.resource ?? null) : null;
};

/** A static VPP of the organisation's node, made through the API: the events below run on it. */
const theirVpp = (h: Harness, org: RecordOwner) =>
  h.app.inject({ method: 'POST', url: '/api/powerstations', headers: org.auth, payload: { type: 'STATIC', name: 'Their VPP', nodes: [org.nodeId] } });

/** Makes one record of each kind in an organisation, through the product's own calls; answers its id. */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  node: async (_h, org) => org.nodeId,
  powerstation: async (h, org) => (await theirVpp(h, org)).json().data.id,
  user: async (_h, org) => org.userId,
  dispatch: async (h, org) => {
    // A reporting battery makes the VPP dispatchable.
    const now = Math.floor(Date.now() / 1000);
    await h.ctx.telemetry.ingest([{ nodeId: org.nodeId, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: null }]);
    const vpp = await theirVpp(h, org);
    const startTime = now - (now % 3600) + 7200;
    const res = await h.app.inject({
      method: 'POST',
      url: '/dispatch',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime, duration: 1800, realPowerP: -1, customerMessage: 'Their message' },
    });
    return res.json().data.id;
  },
  'grid-outage': async (h, org) => {
    const vpp = await theirVpp(h, org);
    const now = Math.floor(Date.now() / 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/grid-outage',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime: now - (now % 3600) + 7200, customerMessage: 'Their message' },
    });
    return res.json().data.id;
  },
  curtailment: async (h, org) => {
    const vpp = await theirVpp(h, org);
    const now = Math.floor(Date.now() / 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/curtailments',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime: now - (now % 3600) + 7200, realPowerP: -1 },
    });
    return res.json().data.id;
  },
  'rert dispatch': async (h, org) => {
    const now = Math.floor(Date.now() / 1000);
    await h.ctx.telemetry.ingest([{ nodeId: org.nodeId, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: null }]);
    const vpp = await theirVpp(h, org);
    // After the dispatch above: the same node is not in two events at once.
    const startTime = now - (now % 3600) + 4 * 3600;
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/rert-dispatches',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime, duration: 1800, realPowerP: -1, customerMessage: 'Their message' },
    });
    return res.json().data.id;
  },
  notification: async (h, org) => {
    await notifyUser(h.ctx, org.userId, { summary: 'Their notification', body: 'Theirs alone.' });
    return (await h.app.inject({ method: 'GET', url: '/account/notifications', headers: org.auth })).json().data.notifications[0].id;
  },
  // A customer's id is its NMI: their home's.
  customer: async (h, org) => (await h.ctx.db.selectFrom('nodes').select('nmi').where('id', '=', org.nodeId).executeTakeFirstOrThrow()).nmi,
  plan: async (h, org) => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/contracts/plan',
      headers: org.auth,
      payload: {
        name: 'Their plan',
        planCode: 'THEIRS-1',
        tariffType: 'FLAT_RATE',
        operationalNetworkUid: 'ausgrid',
        startDate: '2026-01-01',
        dailyCharge: '1',
        feedInTariff: '0.05',
        description: 'Their message',
        rates: [{ label: 'Base Rate', isBaseRate: true, blocks: [{ onset: '0', price: '0.25' }], periods: [] }],
      },
    });
    return res.json().data.uid;
  },
  // The platform's invoice of a past month to their organisation, as the monthly job issues it.
  invoice: async (h, org) => (await issueInvoice(h.ctx, org.id, '2025-01')) as number,
  // An export of their node (queued; the matrix needs the record, not its files).
  export: async (h, org) => {
    const now = Math.floor(Date.now() / 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/analysis/export-jobs',
      headers: org.auth,
      payload: { type: 'operational', params: { start: now - 86400, end: now, queries: ['meter_power'], deploymentUids: [org.nodeId] } },
    });
    return res.json().data.task_id;
  },
  // A VEN written by their OpenADR client (an API key with OpenADR scopes, through the VTN's token).
  'openadr-ven': async (h, org) => {
    const password = Buffer.from(PASSWORD).toString('base64');
    const key = await h.app.inject({
      method: 'POST',
      url: `/account/api-keys?password=${password}`,
      headers: org.auth,
      payload: { keyName: 'Their VEN', openadrScopes: ['read_all', 'write_vens'] },
    });
    const { keyId, key: secret } = key.json().data;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: String(keyId), client_secret: secret });
    const token = await h.app.inject({
      method: 'POST',
      url: '/openadr3/3.0.1/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    const ven = await h.app.inject({
      method: 'POST',
      url: '/openadr3/3.0.1/vens',
      headers: { authorization: `Bearer ${token.json().access_token}` },
      payload: { venName: `Their VEN ${org.id}` },
    });
    return Number(String(ven.json().id).slice(4));
  },
  'api-key': async (h, org) => {
    const password = Buffer.from(PASSWORD).toString('base64');
    const res = await h.app.inject({ method: 'POST', url: `/account/api-keys?password=${password}`, headers: org.auth, payload: { keyName: 'Their key' } });
    return res.json().data.keyId;
  },
};

/** A maker of one record of a kind, in an organisation, through the product's own calls; answers its id. */
export type RecordMaker = (h: Harness, org: RecordOwner) => Promise<number | string>;

/**
 * The makers an area keeps in its own folder (`features/<area>/<area>.records.ts`, exporting
 * `RECORD_MAKERS`), found by being there: a new record kind needs no line here.
 */
const AREA_MAKERS: Record<string, RecordMaker> = Object.assign(
  {},
  ...Object.values(import.meta.glob<{ RECORD_MAKERS: Record<string, RecordMaker> }>('../features/*/*.records.ts', { eager: true })).map((m) => m.RECORD_MAKERS),
);
for (const kind of Object.keys(AREA_MAKERS)) if (kind in RECORD_MAKERS) throw new Error(`Two makers of the record kind ${kind}`);
Object.assign(RECORD_MAKERS, AREA_MAKERS);

/** One record of each kind in the organisation, by the resource name its paths' ids carry. */
export async function makeRecords(h: Harness, owner: RecordOwner): Promise<Map<string, number | string>> {
  const ids = new Map<string, number | string>();
  for (const [resource, make] of Object.entries(RECORD_MAKERS)) ids.set(resource, await make(h, owner));
  return ids;
}
