/**
 * A value read from the store (asynchronously) for what it depends on: read in an effect when a
 * dependency changes, the last value kept on screen until the new one comes — never a blank
 * frame between. A read that fails with a bug (not a refusal: reads say those as values) is
 * thrown in the next render, where the screen's own handling of failures sees it.
 */
import { useEffect, useState, type DependencyList } from 'react';

export interface Loaded<T> {
  value: T;
  /** The first read has come. */
  ready: boolean;
}

export function useLoaded<T>(load: () => Promise<T> | T, deps: DependencyList, initial: T): Loaded<T> {
  const [state, setState] = useState<{ value: T; ready: boolean; failed?: unknown }>({ value: initial, ready: false });
  useEffect(() => {
    let live = true;
    Promise.resolve().then(load).then(
      (value) => { if (live) setState({ value, ready: true }); },
      (failed: unknown) => { if (live) setState((was) => ({ ...was, failed })); },
    );
    return () => { live = false; };
    // The caller's dependencies are the read's: `load` itself is made anew at each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  if (state.failed !== undefined) throw state.failed;
  return { value: state.value, ready: state.ready };
}
