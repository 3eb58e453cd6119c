import { type ComponentType, type ReactNode, useEffect, useState } from 'react';

/** A component loaded on demand that can be asked to load early. */
export type Loadable<P extends object> = ComponentType<P> & {
  /** Starts loading the code (once); a failed load is tried again at the next call. */
  preload: () => Promise<ComponentType<P>>;
};

/**
 * A component whose code loads on demand (`load`), showing `fallback` until it has, and at once when
 * it already has (`preload()` called ahead, beside the page's data requests). Unlike React.lazy it
 * does not suspend: React 19 holds back the reveal of a suspended boundary for up to 300 ms after the
 * last fallback shown, which cost the node page's graph two such waits, one before its data request
 * and one after its data had arrived (issue 34 item 10). A failed load reaches the error boundary.
 */
export function loadable<P extends object>(load: () => Promise<ComponentType<P>>, fallback: (props: P) => ReactNode): Loadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (c) => {
        loaded = c;
        return c;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  function LoadableComponent(props: P) {
    const [state, setState] = useState<{ C?: ComponentType<P>; error?: unknown }>(() => ({ C: loaded }));
    useEffect(() => {
      if (state.C) return;
      let live = true;
      preload().then(
        (C) => live && setState({ C }),
        (error: unknown) => live && setState({ error }),
      );
      return () => {
        live = false;
      };
    }, [state.C]);
    if (state.error) throw state.error;
    return state.C ? <state.C {...props} /> : fallback(props);
  }
  return Object.assign(LoadableComponent, { preload });
}
