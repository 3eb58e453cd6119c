import 'maplibre-gl/dist/maplibre-gl.css';
import { Box } from '@mantine/core';
import { hexagonFeatures, hexRadiusForZoom } from '@vpp/shared/dashboard/hexagons';
import type { GeoJSONSource, MapGeoJSONFeature } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { baseStyle } from '../../../components/node-map-canvas.tsx';
import { frameFor } from '../../../components/node-map-types.ts';
import { useMeta } from '../../../lib/meta.ts';
import { type VoltagePoint, voltageColourExpression } from './heat-map-types.ts';

/** The colour MapLibre evaluated for a rendered feature, as #rrggbb (what the GPU painted it). */
function paintedColour(f: MapGeoJSONFeature): string | null {
  const c = (f.layer.paint as Record<string, unknown> | undefined)?.['fill-color'] as { r: number; g: number; b: number; a: number } | undefined;
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

/**
 * The voltage heat map's MapLibre map (spec 2 §9): the nodes binned into hexagons of the radius for
 * the current zoom, each filled with the colour of its nodes' mean voltage by a step expression on
 * the GPU, in one GeoJSON fill layer and a thin outline. The hexagons are made again when the data
 * changes and when the zoom crosses a radius boundary, not on every frame. The map is removed with
 * the widget. After each paint of new hexagons the box carries how many it drew (data-painted), in
 * which colours (data-colours, `#rrggbb:count` by count), of how many made (data-hexagons), at which
 * radius in metres (data-radius); after every move, the zoom (data-zoom).
 */
export default function HeatMapCanvas(props: { points: VoltagePoint[] }) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<maplibregl.Map | null>(null);
  const framed = useRef(false);
  const counted = useRef(false);
  // The points and the radius the hexagons were last made of, so that zooming within a radius keeps them.
  const points = useRef(props.points);
  points.current = props.points;
  const radius = useRef(0);
  // Bins the points again (force) or when the zoom's radius differs; set while a map is loaded.
  const redraw = useRef<((force: boolean) => void) | null>(null);
  // While the first data is framed: the jump's zoom events wait for the binning after it.
  const framing = useRef(false);
  // Counts the maps loaded: a new map takes the points again.
  const [loaded, setLoaded] = useState(0);
  const meta = useMeta();
  const tileUrl = meta.data ? meta.data.mapTileUrl : meta.isError ? null : undefined;

  useEffect(() => {
    const box = container.current;
    if (!box || tileUrl === undefined) return;
    const m = new maplibregl.Map({ container: box, style: baseStyle(tileUrl), center: [134, -28], zoom: 3.2, attributionControl: false });
    m.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    m.addControl(new maplibregl.AttributionControl({ compact: true, customAttribution: 'Coastline: Natural Earth' }));
    /** Bins the points at the radius of the current zoom into the source (when the radius or the points changed). */
    const draw = (force: boolean) => {
      const r = hexRadiusForZoom(m.getZoom());
      if (!force && (r === radius.current || framing.current)) return;
      const source = m.getSource('volts') as GeoJSONSource | undefined;
      if (!source) return;
      radius.current = r;
      const hexes = hexagonFeatures(points.current, r);
      source.setData(hexes);
      box.dataset.hexagons = String(hexes.features.length);
      box.dataset.radius = String(r);
      counted.current = false;
    };
    m.on('load', () => {
      // No simplification: a hexagon smaller than a pixel (1000 m far out) is kept, not dropped from the tile.
      m.addSource('volts', { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, tolerance: 0 });
      const colour = voltageColourExpression() as never;
      m.addLayer({ id: 'volts', type: 'fill', source: 'volts', paint: { 'fill-color': colour, 'fill-opacity': 0.72 } });
      m.addLayer({
        id: 'volts-outline',
        type: 'line',
        source: 'volts',
        paint: {
          'line-color': colour,
          // Far out, where the radius of spec 2 §9 makes a hexagon a pixel or less, its outline keeps it a visible dot.
          'line-width': ['interpolate', ['linear'], ['zoom'], 5, 3, 9, 0.75],
          'line-opacity': 0.95,
        },
      });
      map.current = m;
      redraw.current = draw;
      setLoaded((n) => n + 1);
    });
    m.on('zoom', () => draw(false));
    // After the first paint of new hexagons, the box carries how many were drawn and in which colours (once per data and radius, not on every pan).
    m.on('idle', () => {
      box.dataset.zoom = String(m.getZoom());
      if (counted.current || !m.getLayer('volts')) return;
      counted.current = true;
      // A hexagon across tiles comes back once per tile: each is counted once, by its id.
      const colours = new Map<number | string, string | null>();
      for (const f of m.queryRenderedFeatures({ layers: ['volts'] })) if (f.id !== undefined && !colours.has(f.id)) colours.set(f.id, paintedColour(f));
      const byColour = new Map<string, number>();
      for (const c of colours.values()) if (c) byColour.set(c, (byColour.get(c) ?? 0) + 1);
      box.dataset.colours = [...byColour]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([c, n]) => `${c}:${n}`)
        .join(',');
      box.dataset.painted = String(colours.size);
    });
    const resized = new ResizeObserver(() => m.resize());
    resized.observe(box);
    return () => {
      resized.disconnect();
      map.current = null;
      redraw.current = null;
      framed.current = false;
      radius.current = 0;
      m.remove();
    };
  }, [tileUrl]);

  useEffect(() => {
    const m = map.current;
    if (!m || loaded === 0) return;
    // Framed once, before binning, so that the hexagons are made at the zoom they are seen at. The
    // heat map comes as close as zoom 12 (the last of the 1000 m hexagons) with or without map tiles:
    // its hexagons are what it shows.
    if (!framed.current && props.points.length > 0) {
      framed.current = true;
      framing.current = true;
      const frame = frameFor(props.points, 12, true);
      if (frame?.kind === 'centre') m.jumpTo({ center: frame.centre, zoom: frame.zoom });
      else if (frame?.kind === 'bounds') m.fitBounds(frame.bounds, { padding: 30, maxZoom: frame.maxZoom, duration: 0 });
      framing.current = false;
    }
    redraw.current?.(true);
  }, [props.points, loaded]);

  return <Box ref={container} h="100%" w="100%" data-testid="heat-map-canvas" />;
}
