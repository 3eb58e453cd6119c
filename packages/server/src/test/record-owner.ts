import type { Harness } from './harness.ts';

// What an area's `<area>.records.ts` is written with: the organisation its record belongs to and
// the maker's type (test/records.ts gathers the makers).

/** The organisation the records belong to: its id, a user with every permission, and one of its nodes. */
export interface RecordOwner {
  id: number;
  userId: number;
  auth: { authorization: string };
  nodeId: number;
}

/** A maker of one record of a kind, in an organisation, through the product's own calls; answers its id. */
export type RecordMaker = (h: Harness, org: RecordOwner) => Promise<number | string>;

/** A static VPP of the organisation's node, made through the API: the areas' events run on it. */
export const theirVpp = (h: Harness, org: RecordOwner) =>
  h.app.inject({ method: 'POST', url: '/api/powerstations', headers: org.auth, payload: { type: 'STATIC', name: 'Their VPP', nodes: [org.nodeId] } });
