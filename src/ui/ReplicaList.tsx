/**
 * A record list read from the device replica (src/sync/live.ts): newest first, paged on the device ten at
 * a time with "load more", the same list markup and labels the server-paged lists had. Offline or stale it
 * says when its data dates from; "Try again" appears only when nothing was ever loaded on this device.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE } from './list-page';
import { useOnlineStatus } from '../pwa/online';
import { appSync } from '../sync/app';
import { useSyncStatus } from '../sync/status';
import type { Replicated, ReplicatedPage } from '../sync/live';
import { StaleNote } from './Freshness';
import { QueryState } from './QueryState';
import './ui.css';

export interface ReplicaListProps<T> {
  /** Every record (paged here), or a page read from the device (useReplicaPage: `total` and `more`). */
  data: Replicated<T> | ReplicatedPage<T>;
  /** `index` is the row's place in the list (0: the first row, the screen's first data). */
  renderItem: (item: T, index: number) => ReactNode;
  itemKey: (item: T) => string;
  emptyText: string;
  /** Names the list for screen readers. */
  label: string;
  pageSize?: number;
  /** Rows shown beside the list (writes waiting in the outbox): while there are any, the list is not "empty". */
  alsoShown?: number;
}

/** The list's state from what the device has: loading, "Try again" when nothing was ever loaded, or ready. */
export function useReplicaStatus(data: Pick<Replicated<unknown>, 'loaded' | 'everLoaded'>) {
  const online = useOnlineStatus();
  const sync = useSyncStatus();
  const failed = !online || sync.state === 'error' || sync.state === 'offline';
  // Nothing on the device yet: wait for the first pull, or offer a retry when it cannot happen.
  return !data.loaded || (!data.everLoaded && !failed) ? 'loading' : !data.everLoaded ? 'error' : 'ready';
}

/** The loading, never-loaded and empty states of a replica read (the records render elsewhere). */
export function ReplicaState({
  data,
  emptyText,
  alsoShown = 0,
}: {
  data: Replicated<unknown>;
  emptyText: string;
  /** As ReplicaList's. */
  alsoShown?: number;
}) {
  const status = useReplicaStatus(data);
  return (
    <QueryState
      status={status}
      onRetry={() => appSync().requestPull()}
      emptyText={emptyText}
      isEmpty={data.records.length === 0 && alsoShown === 0}
    />
  );
}

export function ReplicaList<T>({
  data,
  renderItem,
  itemKey,
  emptyText,
  label,
  pageSize = PAGE_SIZE,
  alsoShown = 0,
}: ReplicaListProps<T>) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(pageSize);
  const { records, everLoaded, pulledAt } = data;
  const paged = 'total' in data;
  const items = paged ? records : records.slice(0, shown);
  const total = paged ? data.total : records.length;
  const more = paged ? data.more : () => setShown((n) => n + pageSize);
  const status = useReplicaStatus(data);
  return (
    <div className="paged">
      {everLoaded && <StaleNote at={pulledAt} />}
      {items.length > 0 && (
        <ul className="record-list" aria-label={label}>
          {items.map((item, index) => (
            <li key={itemKey(item)} className="record">
              {renderItem(item, index)}
            </li>
          ))}
        </ul>
      )}
      <QueryState
        status={status}
        onRetry={() => appSync().requestPull()}
        emptyText={emptyText}
        isEmpty={items.length === 0 && alsoShown === 0}
      />
      {status === 'ready' && items.length < total && (
        <button type="button" className="button block" onClick={more}>
          {t('records.loadMore', { shown: items.length, total })}
        </button>
      )}
      {status === 'ready' && items.length >= total && items.length > 0 && (
        <p className="muted list-end">{t('records.end', { total })}</p>
      )}
    </div>
  );
}
