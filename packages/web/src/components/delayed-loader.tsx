import { Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';

/**
 * A centred loader that shows only when loading takes longer than `delay` ms, so that a quick
 * load (a cached chunk) does not flash it: the Suspense fallback of pages, charts and maps.
 */
export function DelayedLoader({ delay = 300, minHeight, label = 'Loading' }: { delay?: number; minHeight?: number | string; label?: string }) {
  const [shown, setShown] = useState(delay === 0);
  useEffect(() => {
    const t = setTimeout(() => setShown(true), delay);
    return () => clearTimeout(t);
  }, [delay]);
  return <Center mih={minHeight}>{shown && <Loader aria-label={label} />}</Center>;
}
