// The server's /meta.json, in zod's small build (zod/mini): the login page parses it as it opens, and
// the full zod (about 25 KB gzipped, its schemas built as the module loads) would hold up its first
// paint and the demo logins (issue 30). Same contract, same checks; only the way it is written differs.
import { z } from 'zod/mini';

/** What /meta.json answers: the version, demo mode, map tiles and analytics. */
export const metaReply = z.object({
  version: z.string(),
  demo: z.boolean(),
  /** Raster tiles under the shipped basemap ({z}/{x}/{y} template), when MAP_TILE_URL is set. */
  mapTileUrl: z.nullable(z.string()),
  /**
   * A street basemap, when set: the console's own PMTiles extract (BASEMAP_PMTILES, read with range
   * requests) or a MapLibre style (BASEMAP_STYLE_URL), and its attribution. Absent: the shipped coastline.
   */
  basemap: z.optional(z.nullable(z.object({ pmtilesUrl: z.nullable(z.string()), styleUrl: z.nullable(z.string()), attribution: z.string() }))),
  /** Where page views are counted (a Plausible-compatible event endpoint), when ANALYTICS_DOMAIN is set. */
  analytics: z.nullable(z.object({ domain: z.string(), endpoint: z.string() })),
});
export type MetaReply = z.infer<typeof metaReply>;

/** The version alone: what a running app checks against its own, whatever else a newer server's reply holds. */
export const metaVersionReply = z.pick(metaReply, { version: true });
