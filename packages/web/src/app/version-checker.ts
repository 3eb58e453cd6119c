/// <reference types="vite-plugin-pwa/client" />

import { registerSW } from 'virtual:pwa-register';
import { APP_VERSION } from '@vpp/shared/constants';
import { request } from '../lib/request.ts';

/** How often the running app asks whether the server runs a newer version. */
export const VERSION_CHECK_MS = 5 * 60_000;
const RELOADED_FOR = 'vpp.reloaded-for-version';

/** Whether version a (2025.7.10) is newer than b (2025.7.9): numeric, part by part. */
export function isNewerVersion(a: string, b: string): boolean {
  const pa = a.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  }
  return false;
}

/** The server's version from /meta.json?{timestamp}; null on any error, which counts as up to date. */
async function serverVersion(): Promise<string | null> {
  try {
    const { metaVersionReply } = await import('@vpp/shared/auth/meta');
    return (await request(`/meta.json?${Date.now()}`, { auth: false, quiet: true, schema: metaVersionReply })).version;
  } catch {
    return null;
  }
}

/**
 * Compares the server's version with the running build's. A newer one clears the caches (the
 * service worker's too) and reloads, once per version per tab so that a stale proxy cannot loop it.
 */
export async function checkVersion(): Promise<void> {
  const version = await serverVersion();
  if (!version || !isNewerVersion(version, APP_VERSION)) return;
  if (sessionStorage.getItem(RELOADED_FOR) === version) return;
  sessionStorage.setItem(RELOADED_FOR, version);
  if ('caches' in window) await Promise.all((await caches.keys()).map((k) => caches.delete(k)));
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  await registration?.update().catch(() => undefined);
  window.location.reload();
}

/** Registers the service worker (precached assets, vite-plugin-pwa) and starts the version checks. */
export function startVersionChecker(): void {
  registerSW({ immediate: true });
  void checkVersion();
  setInterval(() => void checkVersion(), VERSION_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void checkVersion();
  });
}
