/// <reference path="../types/vt-pbf.d.ts" />
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { afterAll, beforeAll, expect, it } from 'vitest';
import vtpbf from 'vt-pbf';
import { createHarness, type Harness } from '../test/harness.ts';

/** An unsigned LEB128 varint, as PMTiles directories are written. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/**
 * A PMTiles v3 archive of one uncompressed MVT tile at zoom 0 (the format's header, a root directory
 * of one entry, JSON metadata, the tile): the smallest extract MapLibre's pmtiles protocol reads.
 */
function tinyPmtiles(tile: Uint8Array): Buffer {
  const dir = Buffer.from([...varint(1), ...varint(0), ...varint(1), ...varint(tile.length), ...varint(0 + 1)]);
  const meta = Buffer.from(JSON.stringify({ name: 'test streets', vector_layers: [{ id: 'roads', fields: {} }] }));
  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'latin1');
  header.writeUInt8(3, 7);
  const at = { dir: 127, meta: 127 + dir.length, data: 127 + dir.length + meta.length };
  const u64 = (offset: number, v: number) => header.writeBigUInt64LE(BigInt(v), offset);
  u64(8, at.dir);
  u64(16, dir.length);
  u64(24, at.meta);
  u64(32, meta.length);
  u64(40, at.data);
  u64(48, 0);
  u64(56, at.data);
  u64(64, tile.length);
  u64(72, 1);
  u64(80, 1);
  u64(88, 1);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(1, 99); // tile type: MVT
  header.writeUInt8(0, 100);
  header.writeUInt8(0, 101);
  header.writeInt32LE(1120000000, 102);
  header.writeInt32LE(-440000000, 106);
  header.writeInt32LE(1540000000, 110);
  header.writeInt32LE(-100000000, 114);
  header.writeUInt8(0, 118);
  header.writeInt32LE(1340000000, 119);
  header.writeInt32LE(-280000000, 123);
  return Buffer.concat([header, dir, meta, Buffer.from(tile)]);
}

let h: Harness;
let folder: string;
const tile = vtpbf.fromGeojsonVt(
  {
    roads: {
      features: [
        {
          type: 2,
          geometry: [
            [
              [0, 0],
              [4096, 4096],
            ],
          ],
          tags: { kind: 'major_road' },
        },
      ],
    },
  },
  { version: 2 },
);

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'basemap-'));
  fs.writeFileSync(path.join(folder, 'streets.pmtiles'), tinyPmtiles(tile));
  fs.writeFileSync(path.join(folder, 'secret.txt'), 'not for the browser');
  h = await createHarness('sqlite', { BASEMAP_PMTILES: path.join(folder, 'streets.pmtiles'), BASEMAP_ATTRIBUTION: '© OpenStreetMap contributors, Protomaps' });
});
afterAll(async () => {
  await h?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

it('tells the browser where the street basemap is and whose it is', async () => {
  const res = await h.app.inject({ method: 'GET', url: '/meta.json' });
  expect(res.json().basemap).toEqual({
    pmtilesUrl: '/basemap/pmtiles/streets.pmtiles',
    styleUrl: null,
    attribution: '© OpenStreetMap contributors, Protomaps',
  });
});

it('serves the extract in byte ranges, uncompressed, and nothing else of its folder', async () => {
  const res = await h.app.inject({ method: 'GET', url: '/basemap/pmtiles/streets.pmtiles', headers: { range: 'bytes=0-6', 'accept-encoding': 'gzip, br' } });
  expect(res.statusCode).toBe(206);
  expect(res.headers['content-range']).toBe(`bytes 0-6/${fs.statSync(path.join(folder, 'streets.pmtiles')).size}`);
  expect(res.headers['content-encoding']).toBeUndefined();
  expect(res.body).toBe('PMTiles');
  expect((await h.app.inject({ method: 'GET', url: '/basemap/pmtiles/secret.txt' })).statusCode).toBe(404);
  expect((await h.app.inject({ method: 'GET', url: '/basemap/pmtiles/../pmtiles/secret.txt' })).statusCode).toBe(404);
});

it("is read by the pmtiles library (MapLibre's protocol) through range requests: header and tile", async () => {
  const ranges: string[] = [];
  const source: Source = {
    getKey: () => 'streets',
    getBytes: async (offset: number, length: number): Promise<RangeResponse> => {
      const range = `bytes=${offset}-${offset + length - 1}`;
      ranges.push(range);
      const res = await h.app.inject({ method: 'GET', url: '/basemap/pmtiles/streets.pmtiles', headers: { range } });
      expect(res.statusCode).toBe(206);
      const b = res.rawPayload;
      return { data: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer };
    },
  };
  const archive = new PMTiles(source);
  expect(await archive.getHeader()).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 0, tileType: 1 });
  expect((await archive.getMetadata()) as object).toMatchObject({ name: 'test streets' });
  const got = await archive.getZxy(0, 0, 0);
  expect(Buffer.from(got?.data ?? new ArrayBuffer(0))).toEqual(Buffer.from(tile));
  expect(ranges.length).toBeGreaterThan(1);
});
