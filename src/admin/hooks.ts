/** Data loading and formatting shared by the console's screens. */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { AdminData, AdminParams, AdminRoute } from '../../server/admin/contract';
import { AdminApiError, NETWORK_ERROR, adminCall } from './api';

export interface QueryResult<T> {
  status: 'loading' | 'error' | 'ready';
  data: T | undefined;
  error: unknown;
  reload: () => void;
}

/** Calls `route` with `params` whenever they change; keeps the last answer while the next one loads. */
export function useAdminQuery<R extends AdminRoute>(
  route: R,
  params: AdminParams<R>,
  enabled = true,
): QueryResult<AdminData<R>> {
  const key = JSON.stringify(params);
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<Omit<QueryResult<AdminData<R>>, 'reload'>>({
    status: 'loading',
    data: undefined,
    error: null,
  });
  useEffect(() => {
    if (!enabled) return undefined;
    const controller = new AbortController();
    setState((s) => ({ ...s, status: 'loading', error: null }));
    adminCall(route, JSON.parse(key) as AdminParams<R>, { signal: controller.signal }).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data, error: null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, status: 'error', error }));
      },
    );
    return () => controller.abort();
  }, [route, key, tick, enabled]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}

/** What an operator reads for a failure: the server's own message when it sent one. */
export function errorMessage(t: TFunction, error: unknown): string {
  if (error instanceof AdminApiError) {
    if (error.code === NETWORK_ERROR) return t('errors.network');
    if (error.msg) return error.msg;
    if (error.code === 403) return t('errors.forbidden');
    return t('errors.code', { code: error.code });
  }
  return t('errors.network');
}

/** Unix seconds as a date and time in the console's language. */
export function useFormatTime(): (seconds: number | null | undefined) => string {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  return useCallback(
    (seconds) => {
      if (seconds === null || seconds === undefined) return '';
      try {
        return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' }).format(
          new Date(seconds * 1000),
        );
      } catch {
        return new Date(seconds * 1000).toISOString();
      }
    },
    [lang],
  );
}

/** ISO time for CSV files: sortable and the same in every language. */
export function isoTime(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? '' : new Date(seconds * 1000).toISOString();
}
