/**
 * Building blocks of the console's list screens: status tabs with counts, search, paging, CSV export, the
 * loading / error / empty states, a confirm dialog that can ask for a reason (on src/ui/Dialog: focus moved in,
 * Escape closes, focus returns), and images fetched with the operator's token.
 */
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../ui/Dialog';
import { fetchImage } from './api';
import { downloadCsv, toCsv, type CsvColumn } from './csv';
import { errorMessage } from './hooks';

export function QueryStatus({
  status,
  error,
  onRetry,
  empty,
}: {
  status: 'loading' | 'error' | 'ready';
  error: unknown;
  onRetry: () => void;
  /** Ready with nothing to show. */
  empty: boolean;
}) {
  const { t } = useTranslation();
  if (status === 'loading')
    return (
      <p className="admin-state" role="status">
        {t('common.loading')}
      </p>
    );
  if (status === 'error')
    return (
      <div className="admin-state admin-error" role="alert">
        <p>{errorMessage(t, error)}</p>
        <button type="button" className="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      </div>
    );
  if (empty) return <p className="admin-state">{t('common.empty')}</p>;
  return null;
}

export function StatusTabs<S extends string>({
  statuses,
  counts,
  value,
  onChange,
}: {
  statuses: readonly S[];
  counts: Record<string, number> | undefined;
  value: S | '';
  onChange: (status: S | '') => void;
}) {
  const { t } = useTranslation();
  const all = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  const tab = (status: S | '', label: string, count: number | undefined) => (
    <button
      key={status || 'all'}
      type="button"
      className="admin-tab"
      aria-pressed={value === status}
      onClick={() => onChange(status)}
    >
      {label}
      {count !== undefined && (
        <>
          {' '}
          <span className="admin-count">{count}</span>
        </>
      )}
    </button>
  );
  return (
    <div className="admin-tabs" role="group" aria-label={t('common.statusFilter')}>
      {statuses.map((s) => tab(s, t(`status.${s as string}`), counts?.[s] ?? (counts ? 0 : undefined)))}
      {tab('', t('common.all'), all)}
    </div>
  );
}

export function SearchForm({
  value,
  onSearch,
  label,
}: {
  value: string;
  onSearch: (q: string) => void;
  label?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(value);
  function submit(e: FormEvent) {
    e.preventDefault();
    onSearch(text.trim());
  }
  return (
    <form className="admin-search" role="search" onSubmit={submit}>
      <label htmlFor={id}>{label ?? t('common.searchLabel')}</label>
      <input id={id} type="search" value={text} onChange={(e) => setText(e.target.value)} />
      <button type="submit" className="button">
        {t('common.search')}
      </button>
    </form>
  );
}

export function Pager({
  page,
  limit,
  total,
  onPage,
}: {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav className="admin-pager" aria-label={t('common.pages')}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('common.previous')}
      </button>
      <span aria-live="polite">
        {t('common.page', { page, pages })} · {t('common.total', { total })}
      </span>
      <button type="button" className="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}

/** Fetches every row under the current filter, then saves them as CSV. */
export function ExportButton<T>({
  filename,
  columns,
  rows,
}: {
  filename: string;
  columns: readonly CsvColumn<T>[];
  rows: () => Promise<readonly T[]>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      downloadCsv(filename, toCsv(await rows(), columns));
    } catch (err) {
      setError(errorMessage(t, err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="admin-export">
      <button type="button" className="button" onClick={() => void run()} disabled={busy}>
        {busy ? t('common.exporting') : t('common.exportCsv')}
      </button>
      {error && (
        <span className="admin-error-text" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

/** A failure message (the server's, as a rule), announced at once; nothing while there is none. */
export function ErrorAlert({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="admin-error-text" role="alert">
      {text}
    </p>
  );
}

/** A success message, announced politely. Always rendered so that screen readers pick the change up. */
export function Notice({ text }: { text: string | null }) {
  return (
    <p className="admin-notice" role="status" aria-live="polite">
      {text}
    </p>
  );
}

export interface DetailRow {
  label: string;
  value: ReactNode;
}

export function Details({ rows }: { rows: DetailRow[] }) {
  return (
    <dl className="admin-details">
      {rows.map((r) => (
        <div key={r.label}>
          <dt>{r.label}</dt>
          <dd>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Confirms an action; with `reason` it first asks for the reason the action needs (required), and says who
 * reads it: the member, or only the audit log. Shows the server's message on refusal and stays open.
 */
export function ActionDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  reason,
  danger = false,
  disabled = false,
}: {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** Gets the trimmed reason ('' without `reason`). */
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
  reason?: 'member' | 'audit';
  danger?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm(value: string) {
    setBusy(true);
    setError(null);
    try {
      await onConfirm(value);
    } catch (err) {
      setError(errorMessage(t, err));
      setBusy(false);
    }
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    const value = text.trim();
    if (value) return void confirm(value);
    setInvalid(true);
    document.getElementById(`${id}-reason`)?.focus();
  }
  const formId = `${id}-form`;
  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            {...(reason
              ? { type: 'submit', form: formId }
              : { type: 'button', onClick: () => void confirm('') })}
            className={`button ${danger ? 'danger' : 'primary'}`}
            disabled={busy || disabled}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {reason && (
        <form id={formId} className="admin-form" onSubmit={submit} noValidate>
          <label htmlFor={`${id}-reason`}>{t('common.reason')}</label>
          <textarea
            id={`${id}-reason`}
            value={text}
            rows={3}
            maxLength={500}
            required
            aria-invalid={invalid || undefined}
            aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
            onChange={(e) => {
              setText(e.target.value);
              if (e.target.value.trim()) setInvalid(false);
            }}
          />
          <p id={`${id}-hint`} className="admin-hint">
            {reason === 'member' ? t('common.reasonMemberSees') : t('common.reasonAudit')}
          </p>
          {invalid && (
            <p id={`${id}-error`} className="admin-error-text" role="alert">
              {t('common.reasonRequired')}
            </p>
          )}
        </form>
      )}
      <ErrorAlert text={error} />
    </Dialog>
  );
}

/** An operator-only image (payment proof, identity document), fetched with the token. */
export function AuthImage({ url, alt }: { url: string | null; alt: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!url) return undefined;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    setFailed(false);
    fetchImage(url, controller.signal).then(
      (blob) => {
        if (controller.signal.aborted) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      },
      () => {
        if (!controller.signal.aborted) setFailed(true);
      },
    );
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  if (!url) return <p className="admin-image-missing">{t('common.noImage')}</p>;
  if (failed) return <p className="admin-error-text">{t('common.imageError')}</p>;
  if (!src) return <p className="admin-image-missing">{t('common.loading')}</p>;
  return (
    <a href={src} target="_blank" rel="noreferrer" className="admin-image-link">
      <img src={src} alt={alt} className="admin-image" />
    </a>
  );
}
