import 'maplibre-gl/dist/maplibre-gl.css';
import { Box } from '@mantine/core';
import { hexRadiusForZoom } from '@vpp/shared/dashboard/hexagons';
import { HEX_TILE_LAYER, HEXAGON_NODES_LIMIT, MAP_TILE_MAX_ZOOM } from '@vpp/shared/dashboard/map-tiles';
import { voltageColourExpression } from '@vpp/shared/dashboard/voltage';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import type { MapGeoJSONFeature, VectorTileSource } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { createMap } from '../../components/map-base.ts';
import type { HeatMapTiles } from '../../components/map-tiles.ts';
import { frameFor } from '../../components/node-map-types.ts';
import { useMeta } from '../../lib/meta.ts';
import { call } from '../../lib/request.ts';

/** The colour MapLibre evaluated for a rendered feature, as #rrggbb (what the GPU painted it). */
function paintedColour(f: MapGeoJSONFeature): string | null {
  const paint = f.layer.paint as Record<string, unknown> | undefined;
  const c = (paint?.['fill-color'] ?? paint?.['circle-color']) as { r: number; g: number; b: number; a: number } | undefined;
  if (!c || typeof c.r !== 'number') return null;
  // MapLibre keeps colours premultiplied by their alpha.
  const a = c.a || 1;
  return `#${[c.r, c.g, c.b]
    .map((x) =>
      Math.round((x / a) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

const tilesAt = (tiles: HeatMapTiles, radius: number) => `${tiles.url}&radius=${radius}`;

/** The hexagons' layers: polygons filled by their mean voltage, and far out the same as dots. */
function addHexagonLayers(m: maplibregl.Map, url: string): void {
  m.addSource('volts', { type: 'vector', tiles: [url], maxzoom: MAP_TILE_MAX_ZOOM });
  const colour = voltageColourExpression() as never;
  const layer = { source: 'volts', 'source-layer': HEX_TILE_LAYER };
  m.addLayer({ id: 'volts', type: 'fill', ...layer, filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': colour, 'fill-opacity': 0.72 } });
  m.addLayer({
    id: 'volts-outline',
    type: 'line',
    ...layer,
    filter: ['==', ['geometry-type'], 'Polygon'],
    paint: { 'line-color': colour, 'line-width': 0.75, 'line-opacity': 0.95 },
  });
  m.addLayer({
    id: 'volts-far',
    type: 'circle',
    ...layer,
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-color': colour, 'circle-radius': 2.5, 'circle-opacity': 0.9 },
  });
}

/** After a paint of new hexagons: how many were drawn, in which colours (`#rrggbb:count` by count). */
function countPainted(m: maplibregl.Map, box: HTMLElement): void {
  // A hexagon across tiles comes back once per tile: each is counted once, by its id.
  const colours = new Map<number | string, string | null>();
  for (const f of m.queryRenderedFeatures({ layers: ['volts', 'volts-far'] }))
    if (f.id !== undefined && !colours.has(f.id)) colours.set(f.id, paintedColour(f));
  const byColour = new Map<string, number>();
  for (const c of colours.values()) if (c) byColour.set(c, (byColour.get(c) ?? 0) + 1);
  box.dataset.colours = [...byColour]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([c, n]) => `${c}:${n}`)
    .join(',');
  box.dataset.painted = String(colours.size);
}

/** A hexagon's nodes in a popup, lowest voltage first, each opening its node's page. */
async function showHexagon(m: maplibregl.Map, tiles: HeatMapTiles, f: MapGeoJSONFeature, at: maplibregl.LngLat, open: (id: number) => void) {
  const radius = hexRadiusForZoom(m.getZoom());
  const { q, r } = f.properties as { q: number; r: number };
  const { data } = await call(vppEndpoints.heatMapHexagon, { params: { id: tiles.vpp }, query: { radius, q, r, v: tiles.version } });
  const list = document.createElement('div');
  list.setAttribute('aria-label', 'Nodes of the hexagon');
  const head = document.createElement('strong');
  head.textContent = `${data.total} ${data.total === 1 ? 'node' : 'nodes'}${data.total > HEXAGON_NODES_LIMIT ? `, the ${HEXAGON_NODES_LIMIT} lowest` : ''}`;
  list.append(head);
  for (const n of data.nodes) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `Node ${n.id}: ${n.value.toFixed(1)} V`;
    b.style.cssText = 'display:block;border:0;background:none;padding:2px 0;color:#1c7ed6;cursor:pointer;font:inherit';
    b.onclick = () => open(n.id);
    list.append(b);
  }
  new maplibregl.Popup({ maxWidth: '240px' }).setLngLat(at).setDOMContent(list).addTo(m);
}

/**
 * The voltage heat map's MapLibre map (spec 2 §9) over the server's vector tiles of hexagons: the
 * tiles of the radius for the current zoom (asked again when the zoom crosses a radius boundary),
 * filled by their mean voltage. A click on a hexagon lists its nodes; far out, a click on a dot
 * zooms in. After each paint of new hexagons the box carries how many it drew (data-painted), in
 * which colours (data-colours), of how many the view holds at the radius (data-hexagons), at which
 * radius in metres (data-radius); after every move, the zoom (data-zoom).
 */
export default function VoltageMapCanvas(props: { tiles: HeatMapTiles; onSelect: (id: number) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const tiles = useRef(props.tiles);
  tiles.current = props.tiles;
  const onSelect = useRef(props.onSelect);
  onSelect.current = props.onSelect;
  const [map, setMap] = useState<maplibregl.Map | null>(null);
  // Asks the tiles of the current zoom's radius again (force: new data); set while a map is loaded.
  const retile = useRef<((force: boolean) => void) | null>(null);
  const meta = useMeta();
  // The basemap is known once /meta.json answered (or failed: the shipped coastline).
  const basemap = meta.data ? meta.data : meta.isError ? null : undefined;

  useEffect(() => {
    const box = container.current;
    if (!box || basemap === undefined) return;
    const m = createMap(box, basemap, true);
    let counted = false;
    let radius = 0;
    /** The tiles of the radius of the current zoom, when it or the data changed. */
    const toRadius = (force: boolean) => {
      const r = hexRadiusForZoom(m.getZoom());
      const source = m.getSource('volts') as VectorTileSource | undefined;
      if (!source || (!force && r === radius)) return;
      radius = r;
      // The same URL (the radius the layers were added with, the same data) would load every tile again.
      const url = tilesAt(tiles.current, r);
      if (source.tiles?.[0] !== url) source.setTiles([url]);
      box.dataset.hexagons = String(tiles.current.hexagons[String(r)] ?? 0);
      box.dataset.radius = String(r);
      counted = false;
    };
    retile.current = toRadius;
    // The hexagons join the style as soon as it is parsed, not after the basemap's first complete render.
    m.once('style.load', () => {
      addHexagonLayers(m, tilesAt(tiles.current, hexRadiusForZoom(m.getZoom())));
      m.on('click', 'volts', (e) => {
        const f = e.features?.[0];
        if (f) void showHexagon(m, tiles.current, f, e.lngLat, (id) => onSelect.current(id));
      });
      m.on('click', 'volts-far', (e) => m.easeTo({ center: e.lngLat, zoom: Math.min(m.getZoom() + 3, 12) }));
      for (const layer of ['volts', 'volts-far']) {
        m.on('mouseenter', layer, () => {
          m.getCanvas().style.cursor = 'pointer';
        });
        m.on('mouseleave', layer, () => {
          m.getCanvas().style.cursor = '';
        });
      }
      setMap(m);
    });
    m.on('zoomend', () => toRadius(false));
    m.on('idle', () => {
      box.dataset.zoom = String(m.getZoom());
      if (counted || !m.getLayer('volts') || !box.dataset.radius) return;
      counted = true;
      countPainted(m, box);
    });
    const resized = new ResizeObserver(() => m.resize());
    resized.observe(box);
    return () => {
      resized.disconnect();
      setMap(null);
      retile.current = null;
      m.remove();
    };
  }, [basemap]);

  // Framed once per VPP, at most as close as zoom 12 (the last of the 1000 m hexagons); new data of the same VPP keeps the user's view.
  const framed = useRef<number | null>(null);
  const view = props.tiles;
  useEffect(() => {
    if (!map) return;
    const { bounds, vpp } = view;
    if (framed.current !== vpp && bounds) {
      framed.current = vpp;
      const [w, s, e, n] = bounds;
      const frame = frameFor(
        [
          { lng: w, lat: s },
          { lng: e, lat: n },
        ],
        12,
        true,
      );
      if (frame?.kind === 'bounds') map.fitBounds(frame.bounds, { padding: 30, maxZoom: 12, duration: 0 });
    }
    retile.current?.(true);
  }, [map, view]);

  return <Box ref={container} h="100%" w="100%" data-testid="heat-map-canvas" />;
}
