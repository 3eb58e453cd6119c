// What each screen of the built web app downloads: walks Vite's build manifest (build.manifest) from
// the entry through static imports (the login page, which is the shell), and from each lazy page
// through its own static imports, counting gzipped JavaScript. Used by bench/web.ts.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface ScreenLoad {
  /** The page module (src path), or the login page. */
  screen: string;
  /** Gzipped KB of the page chunk and its static imports that the shell does not hold. */
  ownKbGz: number;
  /**
   * Gzipped KB of the screen's first load beyond the shell in the worst case: its own chunks plus
   * the heaviest chain of parts it loads on demand (a tab, the map, the chart).
   */
  firstLoadKbGz: number;
  /** The on-demand chain counted in firstLoadKbGz, by module. */
  heaviestParts: string[];
}

export interface BundleReport {
  /** The login page: the entry chunk and its static imports (the shell every screen starts from). */
  loginKbGz: number;
  loginFiles: string[];
  screens: ScreenLoad[];
  totalJsKbGz: number;
}

const kb = (n: number) => Math.round(n / 102.4) / 10;

/** Reads dist/.vite/manifest.json and computes the gzipped JS each screen needs. */
export function analyseBundle(dist: string): BundleReport {
  const manifest: Manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const gz = new Map<string, number>();
  const sizeOf = (file: string) => {
    if (!gz.has(file)) gz.set(file, file.endsWith('.js') ? gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length : 0);
    return gz.get(file) ?? 0;
  };
  const closure = (key: string, into = new Set<string>()) => {
    if (into.has(key)) return into;
    into.add(key);
    for (const i of manifest[key]?.imports ?? []) closure(i, into);
    return into;
  };
  const bytes = (keys: Iterable<string>) => [...keys].reduce((n, k) => n + sizeOf(manifest[k].file), 0);

  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('no entry chunk in the manifest');
  const shell = closure(entryKey);
  const isPage = (k: string) => /-page\.tsx$/.test(manifest[k].src ?? '');
  // The heaviest chain of on-demand loads from `key` once `loaded` is there: its static closure, then the worst of its dynamic imports.
  const heaviest = (key: string, loaded: Set<string>): { bytes: number; parts: string[] } => {
    const added = [...closure(key)].filter((c) => !loaded.has(c));
    const now = new Set([...loaded, ...added]);
    let worst = { bytes: 0, parts: [] as string[] };
    for (const c of added)
      for (const d of manifest[c].dynamicImports ?? []) {
        if (isPage(d) || now.has(d)) continue;
        const w = heaviest(d, now);
        if (w.bytes > worst.bytes) worst = { bytes: w.bytes, parts: [manifest[d].src ?? d, ...w.parts] };
      }
    return { bytes: bytes(added) + worst.bytes, parts: worst.parts };
  };
  const screens = Object.keys(manifest)
    .filter((k) => manifest[k].isDynamicEntry && isPage(k))
    .map((k) => {
      const own = [...closure(k)].filter((c) => !shell.has(c));
      const first = heaviest(k, shell);
      return { screen: manifest[k].src ?? k, ownKbGz: kb(bytes(own)), firstLoadKbGz: kb(first.bytes), heaviestParts: first.parts };
    })
    .sort((a, b) => b.firstLoadKbGz - a.firstLoadKbGz);
  const allJs = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
  return {
    loginKbGz: kb(bytes(shell)),
    loginFiles: [...shell].map((c) => manifest[c].file),
    screens,
    totalJsKbGz: kb(allJs.reduce((n, c) => n + sizeOf(c.file), 0)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.info(JSON.stringify(analyseBundle(path.resolve(import.meta.dirname, '../packages/web/dist')), null, 2));
