import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

// The street basemap (issue 34 item 11): a Protomaps or OpenMapTiles extract the operator provides
// (BASEMAP_PMTILES) is served by the console itself, and MapLibre reads its directory and tiles with
// HTTP range requests; or a MapLibre style on another server (BASEMAP_STYLE_URL). Neither: the maps
// keep the coastline and state borders shipped with the app.

/** Where the console serves the extract: under this path, by its file name. */
export const BASEMAP_PREFIX = '/basemap/pmtiles/';

/** The basemap the maps draw, as /meta.json tells the browser; null for the shipped coastline. */
export function basemapOf(config: Pick<Config, 'BASEMAP_PMTILES' | 'BASEMAP_STYLE_URL' | 'BASEMAP_ATTRIBUTION'>) {
  if (!config.BASEMAP_PMTILES && !config.BASEMAP_STYLE_URL) return null;
  return {
    pmtilesUrl: config.BASEMAP_PMTILES ? `${BASEMAP_PREFIX}${encodeURIComponent(path.basename(config.BASEMAP_PMTILES))}` : null,
    styleUrl: config.BASEMAP_PMTILES ? null : (config.BASEMAP_STYLE_URL ?? null),
    attribution: config.BASEMAP_ATTRIBUTION,
  };
}

/**
 * Serves the BASEMAP_PMTILES file (and nothing else of its folder) with range requests, ETag and a
 * day's caching. The file must exist when the console starts.
 */
export function registerBasemap(app: FastifyInstance, config: Pick<Config, 'BASEMAP_PMTILES'>): void {
  if (!config.BASEMAP_PMTILES) return;
  const file = path.resolve(config.BASEMAP_PMTILES);
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new Error(`Invalid setting:\n  BASEMAP_PMTILES: no file at ${file}`);
  const name = path.basename(file);
  app.register(fastifyStatic, {
    root: path.dirname(file),
    prefix: BASEMAP_PREFIX,
    decorateReply: false,
    index: false,
    acceptRanges: true,
    allowedPath: (pathName) => pathName === `/${name}`,
    // Not compressed on the way (the tiles inside are, and a compressed range would not be the bytes asked).
    setHeaders: (res) => {
      res.header('content-type', 'application/vnd.pmtiles');
      res.header('cache-control', 'public, max-age=86400');
    },
  });
}
