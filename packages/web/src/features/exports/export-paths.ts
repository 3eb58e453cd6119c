/** The Data Export page (spec 2 §2). */
export const EXPORT_PATH = '/analysis/export';

/**
 * The link to the node export from a node's graph (spec 2 §2): that node chosen, the days shown
 * (first and last, yyyy-MM-dd) and which of solar, battery and SGA were on.
 */
export function nodeExportLink(q: { deploymentId: number; start: string; end: string; solar: boolean; battery: boolean; sga: boolean }): string {
  const p = new URLSearchParams({
    limit: '10',
    offset: '0',
    deploymentId: String(q.deploymentId),
    start: q.start,
    end: q.end,
    solar: String(q.solar),
    battery: String(q.battery),
    sga: String(q.sga),
  });
  return `${EXPORT_PATH}?${p.toString()}`;
}
