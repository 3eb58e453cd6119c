import type { AppContext } from '../../platform/context.ts';

/**
 * What another party's fleet delivered in a dispatch (issue 31 item 3): an OpenADR VEN's reports
 * for the dispatch's intervals, one line per VEN resource. `kw` is per 5-minute bucket of the
 * measured window, signed like the request, NaN where the VEN reported nothing. `nodeId` is the
 * organisation's node the resource is enrolled as (docs/openadr.md), or null.
 */
export interface ExternalResponse {
  source: string;
  resource: string;
  nodeId: number | null;
  kw: Float64Array;
}

type Provider = (ctx: AppContext, eventId: number, buckets: readonly number[]) => Promise<ExternalResponse[]>;

// Set by the OpenADR area (it depends on this one, not the other way round).
let provider: Provider | null = null;
export function useExternalResponses(p: Provider) {
  provider = p;
}

/** The external responses to a dispatch over its measured buckets (none when no area provides them). */
export async function externalResponses(ctx: AppContext, eventId: number, buckets: readonly number[]): Promise<ExternalResponse[]> {
  return provider && buckets.length ? provider(ctx, eventId, buckets) : [];
}
