/**
 * The console's tables and the frame of its list screens: a typed table (caption for screen readers, column
 * headers with scope=col) and a queue screen around it: title, header actions such as the CSV export, status
 * tabs with counts, search, a notice, the loading / error / empty states, the table and the pager.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton, Notice, Pager, QueryStatus, SearchForm, StatusTabs } from './components';
import type { CsvColumn } from './csv';
import type { QueueData } from './hooks';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/**
 * A button in a row's actions cell: its short text, and `label`, which names the row for screen readers
 * ("Credit deposit 12"); `tone` as the console's buttons (primary, danger).
 */
export function RowAction({
  label,
  tone,
  onClick,
  children,
}: {
  label: string;
  tone?: 'primary' | 'danger';
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={tone ? `button ${tone}` : 'button'} aria-label={label} onClick={onClick}>
      {children}
    </button>
  );
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  emptyText,
}: {
  /** Read by screen readers only; the screen's title shows it to everyone. */
  caption?: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Shown instead of the table when there are no rows (nothing is shown when absent). */
  emptyText?: string;
}) {
  if (rows.length === 0) return emptyText === undefined ? null : <p className="admin-state">{emptyText}</p>;
  return (
    <table className="admin-table">
      {caption !== undefined && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} scope="col">
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c, i) => (
              <td key={i} className={c.className}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A record's status as a coloured badge, with the reason it was given (if any) underneath. */
export function StatusCell({
  status,
  reason,
  children,
}: {
  status: string;
  reason?: string | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <span className={`admin-badge admin-badge-${status}`}>{t(`status.${status}`)}</span>
      {reason && <span className="admin-sub">{reason}</span>}
      {children}
    </>
  );
}

export interface QueueScreenProps<T extends { id: string }, S extends string> extends QueueData<T, S> {
  /** Names the title's id: `${name}-title` labels the section. */
  name: string;
  title: string;
  /** Header buttons besides the CSV export. */
  actions?: ReactNode;
  csvColumns: readonly CsvColumn<T>[];
  searchLabel?: string;
  /** Filter controls other than the status tabs and search. */
  filters?: ReactNode;
  columns: readonly Column<T>[];
  /** Dialogs. */
  children?: ReactNode;
}

/**
 * A list screen: title and CSV export, status tabs with counts and search (with `list`), a notice, the
 * loading / error / empty states, the table captioned with the title, and the pager (with `paging`).
 */
export function QueueScreen<T extends { id: string }, S extends string = never>({
  name,
  title,
  actions,
  csv,
  csvColumns,
  list,
  statuses = [],
  counts,
  searchLabel,
  filters,
  notice,
  query,
  rows,
  columns,
  paging,
  children,
}: QueueScreenProps<T, S>) {
  const exportButton = <ExportButton filename={csv.filename} columns={csvColumns} rows={csv.rows} />;
  return (
    <section className="admin-screen" aria-labelledby={`${name}-title`}>
      <header className="admin-screen-head">
        <h1 id={`${name}-title`}>{title}</h1>
        {actions ? (
          <span className="admin-head-actions">
            {actions}
            {exportButton}
          </span>
        ) : (
          exportButton
        )}
      </header>
      {list && statuses.length > 0 && (
        <StatusTabs statuses={statuses} counts={counts} value={list.status} onChange={list.setStatus} />
      )}
      {list && <SearchForm value={list.q} label={searchLabel} onSearch={list.search} />}
      {filters}
      {notice !== undefined && <Notice text={notice} />}
      <QueryStatus
        status={query.status}
        error={query.error}
        onRetry={query.reload}
        empty={rows.length === 0}
      />
      {rows.length > 0 && (
        <div className="admin-table-wrap">
          <DataTable caption={title} columns={columns} rows={rows} rowKey={(row) => row.id} />
        </div>
      )}
      {paging?.total !== undefined && paging.total > 0 && (
        <Pager page={paging.page} limit={paging.limit} total={paging.total} onPage={paging.onPage} />
      )}
      {children}
    </section>
  );
}
