import 'maplibre-gl/dist/maplibre-gl.css';
import { Box } from '@mantine/core';
import type { GeoJSONSource } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { baseStyle } from '../../../components/node-map-canvas.tsx';
import { frameFor } from '../../../components/node-map-types.ts';
import { useMeta } from '../../../lib/meta.ts';
import { type VoltagePoint, voltageColourExpression, voltageFeatures } from './heat-map-types.ts';

/**
 * The voltage heat map's MapLibre map: one circle per node from a GeoJSON source, coloured on the
 * GPU by a step expression, so that 50,000 nodes draw in one layer (no DOM markers). The map is
 * removed with the widget; after each paint the box carries how many nodes were drawn.
 */
export default function HeatMapCanvas(props: { points: VoltagePoint[] }) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<maplibregl.Map | null>(null);
  const framed = useRef(false);
  const counted = useRef(false);
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
    m.on('load', () => {
      m.addSource('volts', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
      m.addLayer({
        id: 'volts',
        type: 'circle',
        source: 'volts',
        paint: {
          'circle-color': voltageColourExpression() as never,
          'circle-radius': ['interpolate', ['linear'], ['zoom'], 3, 3, 7, 5, 12, 7, 15, 10],
          'circle-opacity': 0.85,
        },
      });
      map.current = m;
      setLoaded((n) => n + 1);
    });
    // After the first paint of new data, the box carries how many nodes were drawn (counted once per data).
    m.on('idle', () => {
      if (!counted.current && m.getLayer('volts')) {
        counted.current = true;
        box.dataset.painted = String(m.queryRenderedFeatures({ layers: ['volts'] }).length);
      }
    });
    const resized = new ResizeObserver(() => m.resize());
    resized.observe(box);
    return () => {
      resized.disconnect();
      map.current = null;
      framed.current = false;
      m.remove();
    };
  }, [tileUrl]);

  useEffect(() => {
    const m = map.current;
    if (!m || loaded === 0) return;
    (m.getSource('volts') as GeoJSONSource | undefined)?.setData(voltageFeatures(props.points));
    counted.current = false;
    if (!framed.current && props.points.length > 0) {
      framed.current = true;
      const frame = frameFor(props.points, undefined, Boolean(tileUrl));
      if (frame?.kind === 'centre') m.jumpTo({ center: frame.centre, zoom: frame.zoom });
      else if (frame?.kind === 'bounds') m.fitBounds(frame.bounds, { padding: 30, maxZoom: frame.maxZoom, duration: 0 });
    }
  }, [props.points, tileUrl, loaded]);

  return <Box ref={container} h="100%" w="100%" data-testid="heat-map-canvas" />;
}
