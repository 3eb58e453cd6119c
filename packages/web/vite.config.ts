import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const api = process.env.VITE_API_PROXY ?? 'http://localhost:8080';

// In development Vite serves the app and its modules; every other request goes to the server, so
// that a new API root needs no change here. A GET that asks for HTML stays with Vite and gets
// index.html, so that the app's own routes (/password/reset, /fleet-monitoring/nodes…) load the app.
const publicEntries = fs.existsSync(path.join(import.meta.dirname, 'public')) ? fs.readdirSync(path.join(import.meta.dirname, 'public')) : [];
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// '/@…' is Vite's own (its client, /@fs, /@id, plugins' virtual modules such as /@vite-plugin-pwa).
const viteOwn = ['@', 'src/', 'node_modules/', '__vite', 'index.html', ...publicEntries.map(escapeRe)];
/** Every path but Vite's own: its client, modules, dependencies and the public folder. */
const notVite = `^/(?!(?:${viteOwn.join('|')})).*`;

/**
 * Keeps in the precache only what the login page needs: the entry chunk with its static imports
 * (from Vite's build manifest) and their CSS.
 */
async function shellOnly<E extends { url: string }>(entries: E[]) {
  const manifest: Record<string, { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }> = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, 'dist/.vite/manifest.json'), 'utf8'),
  );
  // The plugin adds the manifest's icon (the logo) itself.
  const shell = new Set<string>();
  const walk = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || shell.has(chunk.file)) return;
    shell.add(chunk.file);
    for (const css of chunk.css ?? []) shell.add(css);
    for (const i of chunk.imports ?? []) walk(i);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key);
  return { manifest: entries.filter((e) => shell.has(e.url)), warnings: [] };
}

/**
 * The login page's stylesheet preloaded rather than render-blocking (issue 30): index.html's first
 * paint (the login frame) carries its own few rules, so it paints as soon as the page arrives;
 * main.tsx applies the stylesheet and renders the app once it has loaded, so nothing shows unstyled
 * (lib/styles.ts).
 */
function nonBlockingStyles(): Plugin {
  return {
    name: 'vpp-non-blocking-styles',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(/<link rel="stylesheet"( crossorigin)? href="([^"]+\.css)">/g, '<link rel="preload" as="style"$1 href="$2" data-login-styles>'),
    },
  };
}

/**
 * Each script and stylesheet of the build also compressed at the highest levels (`.br`, `.gz`), which
 * the server sends to a browser that accepts them (issue 30): compressed as it is served (the
 * server's fast levels for its API replies), the login page's script went out 200 KB rather than
 * 145 KB over a phone's connection.
 */
function precompressed(): Plugin {
  return {
    name: 'vpp-precompressed',
    apply: 'build',
    closeBundle() {
      const assets = path.join(import.meta.dirname, 'dist/assets');
      for (const name of fs.readdirSync(assets).filter((n) => /\.(?:js|css)$/.test(n))) {
        const file = path.join(assets, name);
        const body = fs.readFileSync(file);
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    nonBlockingStyles(),
    precompressed(),
    // The service worker precaches the shell only (the entry chunk and what it imports, the CSS and
    // the logo): the other screens' chunks load when first shown, and are kept then. Pages and API calls always go to
    // the server (downloads and /api/docs stay the server's), and index.html is never served stale.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      manifest: {
        name: 'VPP Console',
        short_name: 'VPP Console',
        theme_color: '#228be6',
        icons: [{ src: '/logo.svg', sizes: 'any', type: 'image/svg+xml' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,svg}'],
        globIgnores: ['**/backgrounds/**', 'sw.js', 'workbox-*.js'],
        navigateFallback: null,
        cleanupOutdatedCaches: true,
        manifestTransforms: [shellOnly],
        // The rest of the app (issue 30): each screen's chunks, the captcha's and MapLibre's code and the
        // login backgrounds are kept as they are first fetched, for the next visit. Chunks are named by
        // their content, so a kept one is never stale; a background is refreshed behind the kept one.
        runtimeCaching: [
          {
            urlPattern: /\/assets\/[^/?]+\.(?:js|css)$/,
            handler: 'CacheFirst',
            options: { cacheName: 'app-chunks', expiration: { maxEntries: 300, maxAgeSeconds: 60 * 86_400 } },
          },
          {
            urlPattern: /\/backgrounds\/[^/?]+\.svg$/,
            handler: 'StaleWhileRevalidate',
            options: { cacheName: 'login-backgrounds', expiration: { maxEntries: 8 } },
          },
        ],
      },
    }),
  ],
  server: {
    port: 5173,
    proxy: {
      [notVite]: {
        target: api,
        bypass: (req) => (req.method === 'GET' && req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
      },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 2000,
    // The login page's modules (the entry's static imports) in one chunk, not twenty (issue 30): on a
    // phone's connection each file is a round trip, six at a time over HTTP/1.1. The screens' chunks
    // import from it what they share with the login page.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'login', tags: ['$initial'] }] } } },
  },
});
