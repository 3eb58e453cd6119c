// What each screen of the built web app downloads: walks Vite's build manifest (build.manifest) from
// the entry through static imports (the login page, which is the shell), and from each lazy page
// through its own static imports, counting gzipped JavaScript. A screen's first load is what it
// needs to paint: its chunk and their static imports. What it loads on demand after painting, behind
// a skeleton (MapLibre when a map comes near the window, uPlot with a chart, a tab's code), is
// counted apart, as the heaviest such chain. Used by bench/web.ts.
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
  /**
   * Gzipped KB of the screen's first load beyond the login page: the page chunk and its static
   * imports, and for a signed-in page the signed-in shell's (app/main-shell.tsx), all that it needs
   * to paint that the login page does not hold (issue 30 item 5: ≤ 350).
   */
  firstLoadKbGz: number;
  /**
   * Gzipped KB with the heaviest chain of parts the screen loads on demand after it has painted
   * (a tab, the map, the chart), each behind its skeleton until it arrives.
   */
  withOnDemandKbGz: number;
  /** That on-demand chain, by module. */
  heaviestParts: string[];
}

export interface BundleReport {
  /** The login page: the entry chunk and its static imports (the shell every screen starts from). */
  loginKbGz: number;
  loginFiles: string[];
  /** The captcha widget's code (altcha), which the login form loads on its first focus. */
  captchaKbGz: number;
  /**
   * All the login page loads after its first render, beyond the shell: the captcha and the auth
   * contract (its endpoints, with zod), on the form's first focus, and the schema of /meta.json
   * (the version check): with the shell, all a sign-in needs (issue 30 item 3: ≤ 200).
   */
  afterFirstRenderKbGz: number;
  /** The shell and afterFirstRenderKbGz: every script the login page downloads before it can sign in. */
  signInKbGz: number;
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
  const captchaKey = (manifest[entryKey].dynamicImports ?? []).find((k) => /node_modules\/altcha\//.test(k));
  if (!captchaKey) throw new Error("no captcha chunk among the entry's dynamic imports");
  // What the shell loads later to sign in: the captcha, the auth contract and the meta schema.
  const shellDynamic = [...shell].flatMap((k) => manifest[k].dynamicImports ?? []);
  const later = [/node_modules\/altcha\//, /shared\/src\/auth\/endpoints\.ts$/, /shared\/src\/auth\/meta\.ts$/].map((re) => {
    const key = shellDynamic.find((k) => re.test(k));
    if (!key) throw new Error(`the login page does not load ${re} on demand`);
    return key;
  });
  const afterFirstRender = new Set(later.flatMap((k) => [...closure(k)]).filter((c) => !shell.has(c)));
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
  // A signed-in screen paints inside the signed-in shell (header, sidebar, menus: app/main-shell.tsx),
  // which the login page loads on demand: its first load counts the shell's code too. The signed-out
  // pages (the password pages, `public` in their routes) paint in the login page's own shell.
  const mainShellKey = shellDynamic.find((k) => /src\/app\/main-shell\.tsx$/.test(k));
  if (!mainShellKey) throw new Error('the login page does not load app/main-shell.tsx on demand');
  const isPublic = (k: string) => /src\/features\/password\//.test(manifest[k].src ?? '');
  const screens = Object.keys(manifest)
    .filter((k) => manifest[k].isDynamicEntry && isPage(k))
    .map((k) => {
      const frame = isPublic(k) ? new Set<string>() : new Set([...closure(mainShellKey)].filter((c) => !shell.has(c)));
      const own = new Set([...frame, ...[...closure(k)].filter((c) => !shell.has(c))]);
      const withParts = heaviest(k, new Set([...shell, ...frame]));
      return {
        screen: manifest[k].src ?? k,
        firstLoadKbGz: kb(bytes(own)),
        withOnDemandKbGz: kb(bytes(frame) + withParts.bytes),
        heaviestParts: withParts.parts,
      };
    })
    .sort((a, b) => b.firstLoadKbGz - a.firstLoadKbGz);
  const allJs = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
  return {
    loginKbGz: kb(bytes(shell)),
    loginFiles: [...shell].map((c) => manifest[c].file),
    captchaKbGz: kb(bytes([...closure(captchaKey)].filter((c) => !shell.has(c)))),
    afterFirstRenderKbGz: kb(bytes(afterFirstRender)),
    signInKbGz: kb(bytes(shell) + bytes(afterFirstRender)),
    screens,
    totalJsKbGz: kb(allJs.reduce((n, c) => n + sizeOf(c.file), 0)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.info(JSON.stringify(analyseBundle(path.resolve(import.meta.dirname, '../packages/web/dist')), null, 2));
