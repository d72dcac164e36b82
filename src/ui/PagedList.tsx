/**
 * A list answered in pages (API.md: `{ list, total, page, limit }`, newest first) with "load more", and
 * the loading, empty, error and offline states. `load` must be stable (useCallback) for the list to keep
 * its pages; changing it starts again from page 1.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { onDemoChange } from '../lib/demo-events';
import { toFailure, type Failure } from '../machines/failure';
import { OfflineNote } from './OfflineNote';
import { QueryState } from './QueryState';
import './ui.css';

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
}

export interface PagedListProps<T> {
  load: (page: number) => Promise<Page<T>>;
  renderItem: (item: T) => ReactNode;
  itemKey: (item: T) => string;
  emptyText: string;
  /** Names the list for screen readers. */
  label: string;
}

interface ListState<T> {
  items: T[];
  page: number;
  total: number;
  loading: boolean;
  error: Failure | null;
}

export function PagedList<T>({ load, renderItem, itemKey, emptyText, label }: PagedListProps<T>) {
  const { t } = useTranslation();
  const [state, setState] = useState<ListState<T>>({
    items: [],
    page: 0,
    total: 0,
    loading: true,
    error: null,
  });
  const generation = useRef(0);

  const fetchPage = useCallback(
    async (page: number, append: boolean) => {
      const mine = generation.current;
      setState((s) => ({ ...s, loading: true, error: null }));
      try {
        const answer = await load(page);
        if (mine !== generation.current) return;
        setState((s) => ({
          items: append ? [...s.items, ...answer.list] : answer.list,
          page,
          total: answer.total,
          loading: false,
          error: null,
        }));
      } catch (error) {
        if (mine !== generation.current) return;
        setState((s) => ({ ...s, loading: false, error: toFailure(error) }));
      }
    },
    [load],
  );

  const restart = useCallback(() => {
    generation.current += 1;
    setState({ items: [], page: 0, total: 0, loading: true, error: null });
    void fetchPage(1, false);
  }, [fetchPage]);

  useEffect(restart, [restart]);
  // The demo tools moved the clock or reset the data: the records may have changed underneath.
  useEffect(() => onDemoChange(restart), [restart]);

  const { items, page, total, loading, error } = state;
  const more = items.length < total;
  return (
    <div className="paged">
      <OfflineNote />
      {items.length > 0 && (
        <ul className="record-list" aria-label={label}>
          {items.map((item) => (
            <li key={itemKey(item)} className="record">
              {renderItem(item)}
            </li>
          ))}
        </ul>
      )}
      <QueryState
        status={loading ? 'loading' : error ? 'error' : 'ready'}
        error={error}
        onRetry={() => void fetchPage(page + 1, page > 0)}
        emptyText={emptyText}
        isEmpty={items.length === 0}
      />
      {!loading && !error && more && (
        <button type="button" className="button block" onClick={() => void fetchPage(page + 1, true)}>
          {t('records.loadMore', { shown: items.length, total })}
        </button>
      )}
      {!loading && !error && !more && items.length > 0 && (
        <p className="muted list-end">{t('records.end', { total })}</p>
      )}
    </div>
  );
}
