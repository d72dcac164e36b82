/** Data loading and formatting shared by the console's screens. */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { AdminList } from '../../contract/admin/model';
import type { AdminData, AdminParams, AdminRoute } from '../../contract/admin/routes';
import { AdminApiError, NETWORK_ERROR, adminCall, fetchAllPages } from './api';
import { csvFilename } from './csv';

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

/** A list screen's filter: status tab, search text and page; a new status or search goes back to page 1. */
export interface ListState<S extends string> {
  status: S | '';
  q: string;
  page: number;
  /** The status and search as request parameters (absent when empty). */
  filter: { status?: S; q?: string };
  setStatus: (status: S | '') => void;
  search: (q: string) => void;
  setPage: (page: number) => void;
}

function useListState<S extends string = never>(initialStatus: S | '' = ''): ListState<S> {
  const [status, setStatus] = useState<S | ''>(initialStatus);
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  return {
    status,
    q,
    page,
    filter: { ...(status ? { status } : {}), ...(q ? { q } : {}) },
    setStatus: (next) => {
      setStatus(next);
      setPage(1);
    },
    search: (text) => {
      setQ(text);
      setPage(1);
    },
    setPage,
  };
}

/** The paged queues filtered by status and search text. */
type QueueRoute =
  | 'GET /api/admin/withdrawals'
  | 'GET /api/admin/deposits'
  | 'GET /api/admin/certs'
  | 'GET /api/admin/members';
type QueueRow<R extends QueueRoute> = AdminData<R> extends AdminList<infer T> ? T : never;
type QueueStatus<R extends QueueRoute> = 'status' extends keyof AdminParams<R>
  ? Extract<AdminParams<R>['status' & keyof AdminParams<R>], string>
  : never;

/** What a queue screen shows besides its columns: rows, filter, counts, page, and the CSV export. */
export interface QueueData<T, S extends string> {
  list?: ListState<S>;
  statuses?: readonly S[];
  counts?: Record<string, number> | undefined;
  query: Pick<QueryResult<unknown>, 'status' | 'error' | 'reload'>;
  rows: readonly T[];
  paging?: { page: number; limit: number; total: number | undefined; onPage: (page: number) => void };
  /** The export's file name and every row under the current filter. */
  csv: { filename: string; rows: () => Promise<readonly T[]> };
  /** Success messages; leave out on screens that act on nothing. */
  notice?: string | null;
}

/**
 * Loads one page of a queue under its status tab and search; `csvName` names the exported file. `done`
 * announces an action's result in the screen's notice and reloads the page.
 */
export function useQueue<R extends QueueRoute>(
  route: R,
  csvName: string,
  statuses: readonly QueueStatus<R>[] = [],
  initialStatus: QueueStatus<R> | '' = '',
  limit = 20,
): { screen: QueueData<QueueRow<R>, QueueStatus<R>>; done: (notice: string) => void } {
  const list = useListState<QueueStatus<R>>(initialStatus);
  const [notice, setNotice] = useState<string | null>(null);
  const params = list.filter as AdminParams<R>;
  const query = useAdminQuery(route, { ...params, page: list.page, limit });
  const data = query.data as AdminList<QueueRow<R>> | undefined;
  const screen = {
    list,
    statuses,
    counts: data?.counts,
    notice,
    query,
    rows: data?.list ?? [],
    paging: { page: list.page, limit, total: data?.total, onPage: list.setPage },
    csv: {
      filename: csvFilename(csvName, list.status),
      rows: () => fetchAllPages(route, params, (d) => d as AdminList<QueueRow<R>>),
    },
  };
  function done(text: string) {
    setNotice(text);
    query.reload();
  }
  return { screen, done };
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
