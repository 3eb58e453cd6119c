import type { FeatureCollection } from 'geojson';

/**
 * Australian state and territory borders, drawn over the Natural Earth coastline. Natural Earth's
 * admin-1 layer is not available as a package here, so these follow the legal lines: the meridians
 * and parallels exactly, the river sections (Murray, Dumaresq–Barwon) by their main bends.
 */
export const STATE_BORDERS: FeatureCollection = {
  type: 'FeatureCollection',
  features: [
    [
      'WA',
      [
        [129, -14.88],
        [129, -31.69],
      ],
    ],
    [
      'NT-SA',
      [
        [129, -26],
        [138, -26],
      ],
    ],
    [
      'NT-QLD',
      [
        [138, -26],
        [138, -16.54],
      ],
    ],
    [
      'SA-QLD',
      [
        [138, -26],
        [141, -26],
        [141, -29],
      ],
    ],
    [
      'SA-NSW-VIC',
      [
        [141, -29],
        [141, -34.02],
        [140.965, -34.02],
        [140.965, -38.06],
      ],
    ],
    [
      'QLD-NSW',
      [
        [141, -29],
        [148.95, -29],
        [149.5, -28.6],
        [150.5, -28.65],
        [151.2, -28.9],
        [152.0, -28.5],
        [152.5, -28.25],
        [153.55, -28.16],
      ],
    ],
    [
      'NSW-VIC',
      [
        [141, -34.02],
        [142.0, -34.3],
        [142.6, -34.8],
        [143.4, -35.3],
        [144.3, -35.9],
        [144.9, -36.1],
        [145.6, -35.9],
        [146.4, -36.0],
        [147.0, -36.1],
        [147.8, -36.0],
        [148.2, -36.8],
        [149.98, -37.51],
      ],
    ],
    [
      'ACT',
      [
        [149.0, -35.12],
        [149.2, -35.15],
        [149.25, -35.35],
        [149.1, -35.6],
        [148.95, -35.75],
        [148.8, -35.6],
        [148.9, -35.3],
        [149.0, -35.12],
      ],
    ],
  ].map(([name, coordinates]) => ({
    type: 'Feature' as const,
    properties: { name: name as string },
    geometry: { type: 'LineString' as const, coordinates: coordinates as [number, number][] },
  })),
};
