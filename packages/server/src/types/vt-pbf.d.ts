// vt-pbf ships no types: the one function the maps' tiles use (platform/vector-tiles.ts).
declare module 'vt-pbf' {
  interface TileLayer {
    features: readonly { id?: number | string; type: 1 | 2 | 3; geometry: unknown; tags: Record<string, unknown> | null | undefined }[];
  }
  const vtpbf: {
    fromGeojsonVt(layers: Record<string, TileLayer>, options?: { version?: number; extent?: number }): Uint8Array;
  };
  export default vtpbf;
}
