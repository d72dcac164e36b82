/**
 * The loading, error and offline states every screen shares, announced politely. Render it while a query
 * is not ready; `empty` covers a ready query with nothing to show.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, errorText } from '../api/errors';
import { isUnanswered, type Failure } from '../machines/failure';
import { useOnlineStatus } from '../pwa/online';
import './forms.css';
// .spinner (the loading state) is styled there; without it the spinner has no size until another screen loads it.
import './ui.css';
import { ErrorState, LoadingState } from './States';

export interface QueryStateProps {
  status: 'loading' | 'error' | 'ready';
  error?: Failure | null;
  onRetry?: () => void;
  /** Shown when status is ready and `isEmpty`. */
  emptyText?: string;
  isEmpty?: boolean;
  /** Shown instead of the spinner while loading: a screen's own placeholder of its final layout. */
  loadingView?: ReactNode;
}

export function QueryState({ status, error, onRetry, emptyText, isEmpty, loadingView }: QueryStateProps) {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  if (status === 'loading') return loadingView ?? <LoadingState />;
  if (status === 'error') {
    // An unanswered call while the device says it is offline is the offline state, not a server error.
    const offline = !online && (!error || isUnanswered(error));
    const text = offline
      ? t('errors.offline')
      : error
        ? errorText(describeError(error.code, error.msg), (k, p) => t(k, { ...p }))
        : t('errors.network');
    return <ErrorState message={text} onRetry={onRetry} />;
  }
  if (isEmpty && emptyText) {
    return (
      <div className="state">
        <p>{emptyText}</p>
      </div>
    );
  }
  return null;
}
