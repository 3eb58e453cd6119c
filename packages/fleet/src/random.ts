/** Deterministic randomness: the same inputs always give the same number in [0, 1). */
export function hash01(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h ^= Math.imul((p | 0) ^ Math.floor(p / 4294967296), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 4294967296;
}

/** A seeded generator for building the fleet (mulberry32). */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}

/** Smooth value noise in [0, 1) over time: knots every `period` seconds, cosine-interpolated. */
export function smoothNoise(key: number, ts: number, period: number): number {
  const k = Math.floor(ts / period);
  const f = (ts - k * period) / period;
  const a = hash01(key, k);
  const b = hash01(key, k + 1);
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return a * (1 - w) + b * w;
}

/** A stable number for a string (region names, postcodes). */
export function stringKey(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
