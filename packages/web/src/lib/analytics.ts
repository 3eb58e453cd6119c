import { metaQueryOptions } from './meta.ts';
import { queryClient } from './query-client.ts';

/**
 * Analytics (spec 1 §1): page views counted by a Plausible-compatible endpoint, without cookies,
 * when the server names one (ANALYTICS_DOMAIN). Only the path is sent: query strings carry
 * searches for addresses and NMIs, which are the operator's customers' business.
 */
export async function startAnalytics(): Promise<void> {
  const meta = await queryClient.fetchQuery(metaQueryOptions).catch(() => null);
  if (!meta?.analytics) return;
  // The tracker loads only where the server names an analytics endpoint.
  const { init } = await import('@plausible-analytics/tracker');
  init({
    domain: meta.analytics.domain,
    endpoint: meta.analytics.endpoint,
    autoCapturePageviews: true,
    captureOnLocalhost: true,
    bindToWindow: false,
    logging: false,
    transformRequest: (payload) => {
      const url = new URL(payload.u);
      return { ...payload, u: `${url.origin}${url.pathname}`, r: null };
    },
  });
}
