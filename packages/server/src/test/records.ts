/// <reference types="vite/client" />
import type { Endpoint } from '@vpp/shared/api/endpoint';
import { idResources } from '@vpp/shared/api/inputs';
import type { z } from 'zod';
import type { Harness } from './harness.ts';
import type { RecordMaker, RecordOwner } from './record-owner.ts';

export type { RecordOwner } from './record-owner.ts';

// The records of one organisation, one of each kind a path's `:id` names, made through the product's
// own calls: the generated matrices (another organisation's records, read-only keys) call every
// endpoint on them.

/** What a path's `:id` names, from the shared id schema (recordId registers it). */
export const resourceOf = (e: Endpoint): string | null => {
  const id = (e.params as { shape?: Record<string, z.ZodType> } | undefined)?.shape?.id;
  return id ? (idResources.get(id)?.resource ?? null) : null;
};

/**
 * The makers of one record of each kind, by the resource name its paths' ids carry. Each area keeps
 * its own in its folder (`features/<area>/<area>.records.ts`, exporting `RECORD_MAKERS`), found by
 * being there: a new record kind needs no line here. They run in reverse order of their areas' names
 * (so the API key is made after the OpenADR client's key: the key list the matrix reads is newest first).
 */
export const RECORD_MAKERS: Record<string, RecordMaker> = {};
const areaMakers = import.meta.glob<{ RECORD_MAKERS: Record<string, RecordMaker> }>('../features/*/*.records.ts', { eager: true });
for (const [, m] of Object.entries(areaMakers).sort(([a], [b]) => b.localeCompare(a))) {
  for (const [kind, make] of Object.entries(m.RECORD_MAKERS)) {
    if (kind in RECORD_MAKERS) throw new Error(`Two makers of the record kind ${kind}`);
    RECORD_MAKERS[kind] = make;
  }
}

/** One record of each kind in the organisation, by the resource name its paths' ids carry. */
export async function makeRecords(h: Harness, owner: RecordOwner): Promise<Map<string, number | string>> {
  const ids = new Map<string, number | string>();
  for (const [resource, make] of Object.entries(RECORD_MAKERS)) ids.set(resource, await make(h, owner));
  return ids;
}
