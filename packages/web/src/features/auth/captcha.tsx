import { endpointUrl } from '@vpp/shared/api/endpoint';
import { authEndpoints } from '@vpp/shared/auth/endpoints';
import type {} from 'altcha/types/react';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { API_BASE } from '../../lib/request.ts';

let loading: Promise<unknown> | null = null;

/**
 * Loads the widget's code (a web component) once, on the first focus of the login form or the
 * pointer over it (issue 30: not with the page): the element upgrades in place once it is defined,
 * and keeps its height meanwhile so that nothing moves.
 */
export function loadCaptcha(): void {
  loading ??= import('altcha').catch(() => {
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
      challenge={API_BASE + endpointUrl(authEndpoints.captcha, { query: login ? { login } : undefined })}
      configuration={JSON.stringify({ hideLogo: true, hideFooter: true })}
      style={{ '--altcha-max-width': '100%', minHeight: 48 }}
    />
  );
});
