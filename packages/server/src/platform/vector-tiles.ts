/// <reference path="../types/vt-pbf.d.ts" />
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import vtpbf from 'vt-pbf';
import { badRequest } from './errors.ts';

// Mapbox vector tiles (MVT) of the maps (issue 30): the maps' areas index their view once per
// organisation and scope (a VPP, a search) and keep it for the nodes' report interval; a tile is cut
// from the index, encoded by vt-pbf, gzipped once (in the map worker, platform/map-tiles.ts) and kept
// with the view. A view's version (a hash of what it was made of) goes into the tiles' URL, so new
// data is new tiles to the browser.

/** Tile coordinates of a tile's features, as geojson-vt and supercluster cut them. */
export const TILE_EXTENT = 4096;

/** A feature of a tile as geojson-vt and supercluster give it: tile coordinates and tags. */
export interface TileFeature {
  id?: number | string;
  type: 1 | 2 | 3;
  geometry: unknown;
  tags: Record<string, unknown> | null | undefined;
}

/** One indexed view: its data, its version, and the tiles cut from it so far (gzipped). */
export interface TileView<T> {
  data: T;
  version: string;
  madeAt: number;
  tiles: Map<string, Promise<Buffer>>;
}

/**
 * Views by key (organisation, scope, query), each kept `ttlMs` after it was made; at most `max`
 * views, the oldest dropped first. Two callers asking the same view while it is made share one build.
 * A view let go is handed to `dropped` a little later (tiles already asked of it are answered first).
 */
export class TileViews<T> {
  private readonly views = new Map<string, Promise<TileView<T>>>();
  constructor(
    private readonly ttlMs: number,
    private readonly max = 64,
    private readonly dropped?: (data: T) => void,
  ) {}

  private letGo(view: Promise<TileView<T>> | undefined): void {
    const dropped = this.dropped;
    if (!view || !dropped) return;
    view.then(
      (v) => setTimeout(() => dropped(v.data), 10_000).unref(),
      () => {},
    );
  }

  /** The view of `key`, made by `build` when there is none or it is older than the time to live. */
  async get(key: string, build: () => Promise<T>, versionOf: (data: T) => string, now = Date.now()): Promise<TileView<T>> {
    const held = this.views.get(key);
    if (held) {
      const view = await held.catch(() => null);
      if (view && now - view.madeAt < this.ttlMs) return view;
      if (this.views.get(key) === held) {
        this.views.delete(key);
        this.letGo(held);
      } else return this.get(key, build, versionOf, now);
    }
    const made = build().then((data) => ({ data, version: versionOf(data), madeAt: now, tiles: new Map<string, Promise<Buffer>>() }));
    this.views.set(key, made);
    made.catch(() => this.views.delete(key));
    while (this.views.size > this.max) {
      const oldest = this.views.keys().next().value as string;
      this.letGo(this.views.get(oldest));
      this.views.delete(oldest);
    }
    return made;
  }

  /** Forgets every view (tests; the map worker stopped, `drop` false, as its views are gone). */
  clear(drop = true): void {
    if (drop) for (const v of this.views.values()) this.letGo(v);
    this.views.clear();
  }
}

/** A short hash of the values a view was made of: its version. */
export function versionOf(...parts: (string | number | ArrayLike<number>)[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(typeof p === 'object' ? Buffer.from(Float64Array.from(p as ArrayLike<number>).buffer) : `${p}|`);
  return h.digest('base64url').slice(0, 16);
}

/** 400 for a column or row outside the zoom's grid. */
export function checkTile(t: { z: number; x: number; y: number }): void {
  const n = 2 ** t.z;
  if (t.x >= n || t.y >= n) throw badRequest(`x and y must be below ${n} at zoom ${t.z}.`);
}

/** A tile's layers encoded as MVT (version 2) and gzipped: empty layers are left out. */
export function encodeTile(layers: Record<string, TileFeature[]>): Buffer {
  const present = Object.fromEntries(
    Object.entries(layers)
      .filter(([, features]) => features.length > 0)
      .map(([name, features]) => [name, { features }]),
  );
  return gzipSync(vtpbf.fromGeojsonVt(present, { version: 2, extent: TILE_EXTENT }), { level: 6 });
}

/** The tile of `key` in the view, cut and encoded once (by `cut`, in the map worker). */
export function tileOf<T>(view: TileView<T>, key: string, cut: () => Promise<Uint8Array>): Promise<Buffer> {
  let tile = view.tiles.get(key);
  if (!tile) {
    tile = cut().then((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    view.tiles.set(key, tile);
    tile.catch(() => view.tiles.delete(key));
  }
  return tile;
}

/** Sends a gzipped tile: as it is to a client that takes gzip (every browser), unzipped to one that does not. */
export function sendTile(req: FastifyRequest, reply: FastifyReply, gzipped: Buffer): FastifyReply {
  reply.type('application/vnd.mapbox-vector-tile');
  const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (accepts) return reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').send(gzipped);
  return reply.send(gunzipSync(gzipped));
}
