import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// In development Vite serves the app and passes API calls to the server; a GET that asks for HTML
// stays with Vite so that the app's own routes (/password/reset…) load the app.
const api = process.env.VITE_API_PROXY ?? 'http://localhost:8080';
const proxied = ['/auth', '/account', '/api', '/v2', '/password', '/dashboard', '/fleet', '/meta.json', '/healthz'];

export default defineConfig({
  plugins: [
    react(),
    // The service worker precaches the built assets only: pages and API calls always go to the
    // server (downloads and /api/docs stay the server's), and index.html is never served stale.
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
        globPatterns: ['**/*.{js,css,svg,png,woff2}'],
        globIgnores: ['**/backgrounds/**'],
        navigateFallback: null,
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      proxied.map((p) => [
        p,
        { target: api, bypass: (req) => (req.method === 'GET' && req.headers.accept?.includes('text/html') ? '/index.html' : undefined) },
      ]),
    ),
  },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 2000 },
});
