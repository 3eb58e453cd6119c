import { endpointUrl } from '@vpp/shared/api/endpoint';
import type {} from 'altcha/types/react';
import { forwardRef, useEffect, useImperativeHandle, useRef, useSyncExternalStore } from 'react';
import { API_BASE } from '../../lib/request.ts';
import { loadAuthEndpoints } from './api.ts';

let loading: Promise<unknown> | null = null;
/** The auth contract (the challenge's path, with zod), once loadCaptcha has brought it. */
let endpoints: Awaited<ReturnType<typeof loadAuthEndpoints>> | null = null;
const loaded = new Set<() => void>();

/**
 * Loads the widget's code (a web component) once, on the first focus of the login form or the
 * pointer over it (issue 30: not with the page): the element upgrades in place once it is defined,
 * and keeps its height meanwhile so that nothing moves.
 */
export function loadCaptcha(): void {
  loading ??= Promise.all([
    import('altcha'),
    loadAuthEndpoints().then((e) => {
      endpoints = e;
      for (const l of loaded) l();
    }),
  ]).catch(() => {
    loading = null;
  });
}

export interface CaptchaHandle {
  reset(): void;
}

/**
 * The ALTCHA proof-of-work widget. It yields a token once solved, and null again when it expires
 * or is reset (a token is accepted by the server once only). Its challenge is asked for the login
 * being typed: an account that has failed many sign-ins from elsewhere gets a costlier one, which
 * the server then requires (issue 9, item 6).
 */
export const Captcha = forwardRef<CaptchaHandle, { onToken: (token: string | null) => void; login?: string }>(function Captcha({ onToken, login }, ref) {
  // The challenge's path comes from the auth contract, which loads with the widget's code.
  const auth = useSyncExternalStore(
    (l) => {
      loaded.add(l);
      return () => loaded.delete(l);
    },
    () => endpoints,
  );
  // Until then a box of the widget's height, as the widget itself shows before its code arrives.
  if (!auth) return <div style={{ minHeight: 48 }} />;
  const challenge = API_BASE + endpointUrl(auth.captcha, { query: login ? { login } : undefined });
  return <CaptchaWidget ref={ref} onToken={onToken} challenge={challenge} />;
});

const CaptchaWidget = forwardRef<CaptchaHandle, { onToken: (token: string | null) => void; challenge: string }>(function CaptchaWidget(
  { onToken, challenge },
  ref,
) {
  const el = useRef<HTMLElement & { reset?: () => void }>(null);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;

  useImperativeHandle(ref, () => ({
    reset() {
      el.current?.reset?.();
      onTokenRef.current(null);
    },
  }));

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const onState = (ev: Event) => {
      const detail = (ev as CustomEvent<{ state: string; payload?: string }>).detail;
      onTokenRef.current(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    node.addEventListener('statechange', onState);
    return () => node.removeEventListener('statechange', onState);
  }, []);

  return (
    <altcha-widget
      ref={el}
      challenge={challenge}
      configuration={JSON.stringify({ hideLogo: true, hideFooter: true })}
      style={{ '--altcha-max-width': '100%', minHeight: 48 }}
    />
  );
});
