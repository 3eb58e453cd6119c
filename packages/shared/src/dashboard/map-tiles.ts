import { z } from 'zod';
import { HEX_RADII, HEX_RADIUS_CLOSE } from './hexagons.ts';

// The maps' calls (issue 30): a map no longer downloads every node. It asks for its view's summary
// (how many nodes, where, the version of the data) and then for Mapbox vector tiles (MVT) of the
// tiles it shows: the node map's nodes and clusters, the heat map's hexagons binned on the server.

/** A map's view is kept this long on the server (the nodes' report interval): its tiles are of one moment. */
export const MAP_VIEW_TTL_S = 30;
/** The deepest tile zoom the server makes; MapLibre draws closer zooms from these tiles. */
export const MAP_TILE_MAX_ZOOM = 16;
/** The node map's clusters break into single nodes past this zoom. */
export const MAP_CLUSTER_MAX_ZOOM = 12;
/** The source layer of the node maps' tiles and of the heat map's tiles. */
export const NODE_TILE_LAYER = 'nodes';
export const HEX_TILE_LAYER = 'hexagons';

const tileNumber = (name: string, max: number) => {
  const message = `${name} must be a whole number from 0 to ${max}.`;
  return z.coerce.number({ error: message }).int(message).min(0, message).max(max, message);
};

/** A tile's address: zoom, column and row (the column and row are checked against the zoom by the server). */
export const tileParams = z.object({
  z: tileNumber('z', MAP_TILE_MAX_ZOOM),
  x: tileNumber('x', 2 ** MAP_TILE_MAX_ZOOM - 1),
  y: tileNumber('y', 2 ** MAP_TILE_MAX_ZOOM - 1),
});

/** The version of the data a view was made of (the tiles' URL carries it, so that new data is new tiles). */
const version = z.string().max(40, 'v must be at most 40 characters.').optional();

const boolText = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false.` })
    .default('true')
    .transform((v) => v === 'true');

/** A node map's tiles: clustered (the default) or every node on its own. */
export const nodeTileQuery = z.object({ v: version, cluster: boolText('cluster') });

/** West, south, east, north of the view's nodes; null when it has none. */
const bounds = z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable();

/** A node map's view: how many nodes, where, and the version its tiles carry. */
export const mapViewReply = z.object({
  status: z.literal('OK'),
  data: z.object({ total: z.number(), bounds, version: z.string() }),
});

/** Spec 2 §9's hexagon radii, in metres. */
export const HEX_RADIUS_CHOICES = [...HEX_RADII.map((s) => s.radius), HEX_RADIUS_CLOSE] as const;
const radius = z.coerce
  .number({ error: `radius must be one of ${HEX_RADIUS_CHOICES.join(', ')} metres.` })
  .refine((r) => (HEX_RADIUS_CHOICES as readonly number[]).includes(r), `radius must be one of ${HEX_RADIUS_CHOICES.join(', ')} metres.`);

/** The heat map's tiles: the hexagons of one radius (the client asks the radius of its zoom). */
export const hexTileQuery = z.object({ v: version, radius });

/** The heat map's view: its reporting nodes, how many are outside the supply band, where, and its hexagons per radius. */
export const heatMapViewReply = z.object({
  status: z.literal('OK'),
  data: z.object({
    total: z.number(),
    outside: z.number(),
    bounds,
    version: z.string(),
    hexagons: z.record(z.string(), z.number()),
  }),
});

const axial = (name: string) => z.coerce.number({ error: `${name} must be a whole number.` }).int(`${name} must be a whole number.`);

/** One hexagon of the heat map, by its radius and axial coordinates (as its tile feature carries them). */
export const hexagonQuery = z.object({ v: version, radius, q: axial('q'), r: axial('r') });

/** The nodes of a hexagon (at most HEXAGON_NODES_LIMIT of them, lowest voltage first) and how many it holds. */
export const HEXAGON_NODES_LIMIT = 50;
export const hexagonReply = z.object({
  status: z.literal('OK'),
  data: z.object({
    total: z.number(),
    nodes: z.array(z.object({ id: z.number(), value: z.number() })),
  }),
});
