/**
 * One read for a screen: loading, then the data or the failure, with a reload. Screens call the API with
 * `silent: true` inside `load` so the failure shows in place (QueryState) instead of as a toast too.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { onDemoChange } from '../lib/demo-events';
import { toFailure, type Failure } from '../machines/failure';

export type QueryResult<T> =
  | { status: 'loading'; data: T | undefined; error: null; reload: () => void }
  | { status: 'error'; data: T | undefined; error: Failure; reload: () => void }
  | { status: 'ready'; data: T; error: null; reload: () => void };

type Inner<T> =
  | { status: 'loading'; data: T | undefined }
  | { status: 'error'; data: T | undefined; error: Failure }
  | { status: 'ready'; data: T };

/** `key` changes re-run the load (e.g. a page number); `load` itself may be a fresh closure each render. */
export function useQuery<T>(load: () => Promise<T>, key: string = ''): QueryResult<T> {
  const [state, setState] = useState<Inner<T>>({ status: 'loading', data: undefined });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  // Declared before the loading effect, so it runs first and the load below sees this render's closure.
  useEffect(() => {
    loadRef.current = load;
  });

  useEffect(() => {
    let live = true;
    setState((s) => ({ status: 'loading', data: s.data }));
    loadRef.current().then(
      (data) => live && setState({ status: 'ready', data }),
      (error: unknown) =>
        live && setState((s) => ({ status: 'error', data: s.data, error: toFailure(error) })),
    );
    return () => {
      live = false;
    };
  }, [key, nonce]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  // A demo fast-forward changes server state the way a push would: show the new state.
  useEffect(() => onDemoChange(reload), [reload]);
  if (state.status === 'error') return { ...state, reload };
  if (state.status === 'ready') return { ...state, error: null, reload };
  return { ...state, error: null, reload };
}
