import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../test/render.tsx';
import { NodeMap } from './node-map.tsx';
import {
  BASEMAP_ZOOM,
  coordinates,
  FIT_MAX_ZOOM,
  fittedHeight,
  frameFor,
  MAP_LEGEND,
  type MapNode,
  mapDescription,
  nodeFeatures,
  nodeLabel,
  STATUS_COLOURS,
} from './node-map-types.ts';

// jsdom has no WebGL: the MapLibre canvas stays out, the frame around it (legend, text alternative) is tested.
vi.mock('./node-map-canvas.tsx', () => ({ default: () => <div data-testid="canvas" /> }));

const brisbane: MapNode = { id: 7, lat: -27.4698, lng: 153.0251, displayStatus: 'ONLINE', siteLabel: 'Smith house' };
const perth: MapNode = { id: 8, lat: -31.9523, lng: 115.8613, displayStatus: 'OFFLINE', siteLabel: null, address: '1 Hay St, Perth WA 6000' };
const hobart: MapNode = { id: 9, lat: -42.8821, lng: 147.3272, displayStatus: 'AWAITING_CONTACT', siteLabel: null };

describe('node map data', () => {
  it('labels a node by its site label, else its address, else its id', () => {
    expect([brisbane, perth, hobart].map(nodeLabel)).toEqual(['Smith house', '1 Hay St, Perth WA 6000', 'Node 9']);
  });

  it('builds one GeoJSON point per node, at [lng, lat], with its id, status and hover label', () => {
    expect(nodeFeatures([brisbane, perth])).toEqual({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { id: 7, status: 'ONLINE', label: 'Smith house' }, geometry: { type: 'Point', coordinates: [153.0251, -27.4698] } },
        {
          type: 'Feature',
          properties: { id: 8, status: 'OFFLINE', label: '1 Hay St, Perth WA 6000' },
          geometry: { type: 'Point', coordinates: [115.8613, -31.9523] },
        },
      ],
    });
  });

  it('has a legend entry per status, with the colours the markers wear', () => {
    expect(MAP_LEGEND).toEqual([
      { status: 'ONLINE', label: 'Online', colour: STATUS_COLOURS.ONLINE },
      { status: 'OFFLINE', label: 'Offline', colour: STATUS_COLOURS.OFFLINE },
      { status: 'AWAITING_CONTACT', label: 'Awaiting Contact', colour: STATUS_COLOURS.AWAITING_CONTACT },
      { status: 'NOT_COMMISSIONED', label: 'Not Commissioned', colour: STATUS_COLOURS.NOT_COMMISSIONED },
    ]);
  });

  it('leaves the view alone with no nodes, fits several, and centres one', () => {
    expect(frameFor([], 13, true)).toBeNull();
    expect(frameFor([brisbane, perth, hobart], undefined, true)).toEqual({
      kind: 'bounds',
      bounds: [
        [115.8613, -42.8821],
        [153.0251, -27.4698],
      ],
      maxZoom: FIT_MAX_ZOOM,
    });
    // A search leaving one node zooms to it, although the page asked for no zoom.
    expect(frameFor([brisbane], undefined, true)).toEqual({ kind: 'centre', centre: [153.0251, -27.4698], zoom: 13 });
    expect(frameFor([brisbane], 13, true)).toEqual({ kind: 'centre', centre: [153.0251, -27.4698], zoom: 13 });
  });

  it('falls back to a zoom where the shipped basemap shows something when there are no map tiles', () => {
    expect(frameFor([brisbane], 13, false)).toEqual({ kind: 'centre', centre: [153.0251, -27.4698], zoom: BASEMAP_ZOOM });
    expect(frameFor([brisbane, perth], undefined, false)).toMatchObject({ kind: 'bounds', maxZoom: BASEMAP_ZOOM });
    expect(frameFor([brisbane], 5, false)).toEqual({ kind: 'centre', centre: [153.0251, -27.4698], zoom: 5 });
  });

  it('fits the map in the window below its top, never under 500 px, never over the page height', () => {
    // 1440×900, the fleet map starting at 233 px: 900 - 220 = 680 would run past the window.
    expect(fittedHeight(680, 900, 233)).toBe(651);
    expect(fittedHeight(680, 900, 150)).toBe(680);
    // A phone: the map starts low, and keeps the spec's minimum.
    expect(fittedHeight(624, 844, 360)).toBe(500);
    expect(fittedHeight(320, 900, 700)).toBe(320);
    expect(fittedHeight(680, 0, null)).toBe(680);
  });

  it('describes the map by its node count and where they are listed', () => {
    expect(mapDescription(12, 'the List tab')).toBe('Shows 12 nodes, coloured by status. The List tab lists them.');
    expect(mapDescription(1)).toBe('Shows 1 node, coloured by status.');
    expect(mapDescription(0, 'the List tab')).toBe('Shows 0 nodes, coloured by status.');
    expect(coordinates(-27.4698, 153.0251)).toBe('-27.46980, 153.02510');
  });
});

describe('NodeMap', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("counts the server's view of a fleet (its tiles), and its legend names no clusters when clustering is off", () => {
    renderScreen(
      <NodeMap
        tiles={{ url: 'http://localhost/dashboard/map/tiles/{z}/{x}/{y}?v=1', total: 50000, bounds: [112, -44, 154, -10] }}
        cluster={false}
        height={500}
        label="Fleet map"
        listedBy="the list view (View List)"
      />,
    );
    const region = screen.getByRole('region', { name: 'Fleet map' });
    expect(region).toHaveAttribute('data-node-count', '50000');
    expect(region).toHaveAccessibleDescription('Shows 50000 nodes, coloured by status. The list view (View List) lists them.');
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Online', 'Offline', 'Awaiting Contact', 'Not Commissioned']);
  });

  it('is a region named by its label, described by its count, with the legend', async () => {
    renderScreen(<NodeMap nodes={[brisbane, perth]} height={500} label="VPP map" listedBy="the List tab" />);
    const region = screen.getByRole('region', { name: 'VPP map' });
    expect(region).toHaveAccessibleDescription('Shows 2 nodes, coloured by status. The List tab lists them.');
    expect(region).toHaveAttribute('data-node-count', '2');
    const legend = within(region).getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Online', 'Offline', 'Awaiting Contact', 'Not Commissioned', 'Cluster of mixed statuses (one status: its colour)']);
    // Listed elsewhere on the page: no hidden list of its own.
    expect(within(region).queryByRole('list', { name: 'Nodes on the vpp map' })).toBeNull();
    await screen.findByTestId('canvas');
  });

  it('puts its legend below the map, not over it, where asked (a small dashboard widget)', async () => {
    renderScreen(<NodeMap nodes={[brisbane, perth]} height={120} fitWindow={false} label="Map of the fleet" legend="below" />);
    const region = screen.getByRole('region', { name: 'Map of the fleet' });
    expect(within(region).queryByRole('list', { name: 'Legend' })).toBeNull();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(region.contains(legend)).toBe(false);
    expect(region.compareDocumentPosition(legend) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(legend).getAllByRole('listitem')).toHaveLength(5);
    await screen.findByTestId('canvas');
  });

  it('lists its nodes for screen readers when nothing else on the page does', async () => {
    renderScreen(<NodeMap nodes={[perth]} height={320} label="Node location" />);
    const region = screen.getByRole('region', { name: 'Node location' });
    expect(region).toHaveAccessibleDescription('Shows 1 node, coloured by status.');
    const list = within(region).getByRole('list', { name: 'Nodes on the node location' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('1 Hay St, Perth WA 6000: Offline');
    await screen.findByTestId('canvas');
  });

  it('loads MapLibre only when the map comes near the window, with a skeleton of the map until then (issue 30)', async () => {
    let near: IntersectionObserverCallback | undefined;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: IntersectionObserverCallback) {
          near = cb;
        }
        observe() {}
        disconnect() {}
      },
    );
    const { container } = renderScreen(<NodeMap nodes={[brisbane]} height={320} label="Customer location" />);
    const region = screen.getByRole('region', { name: 'Customer location' });
    // The canvas's module is there to be had (a map that asked for it would show it once this settles): none asked.
    await act(async () => {
      await import('./node-map-canvas.tsx');
    });
    expect(container.querySelector('[data-map-skeleton]')).not.toBeNull();
    expect(screen.queryByTestId('canvas')).toBeNull();
    // The legend is there at once; only the map waits.
    expect(within(region).getByRole('list', { name: 'Legend' })).toBeVisible();
    act(() => near?.([{ target: region, isIntersecting: true } as unknown as IntersectionObserverEntry], {} as IntersectionObserver));
    await screen.findByTestId('canvas');
    expect(container.querySelector('[data-map-skeleton]')).toBeNull();
  });
});
