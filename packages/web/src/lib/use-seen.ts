import { useCallback, useRef, useState } from 'react';

const NO_OBSERVER = () => undefined;

/**
 * Whether the element has come within `aheadPx` of the window (and stays true from then on): what
 * it holds (a dashboard widget's requests, a map's MapLibre) loads then, not with the page (issue 30).
 * True at once where the browser cannot tell (no IntersectionObserver). Returns the ref to attach.
 */
export function useSeen(aheadPx: number): [(node: HTMLElement | null) => void, boolean] {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback(
    (node: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!node || typeof IntersectionObserver === 'undefined') return;
      observer.current = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            setSeen(true);
            observer.current?.disconnect();
          }
        },
        { rootMargin: `${aheadPx}px 0px` },
      );
      observer.current.observe(node);
    },
    [aheadPx],
  );
  return [seen ? NO_OBSERVER : ref, seen];
}
