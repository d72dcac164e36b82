/**
 * The loading and error states every screen shows, as plain markup: QueryState (a query's states), AppShell
 * (a screen's code loading or failing to load) and the build-time shell (src/app/shell/StaticShell.tsx, whose
 * markup React must reproduce exactly) all render these. Kept light: no styles, data or network imports, so
 * AppShell and the shell can use them without pulling anything else onto /home's critical path; the styles
 * (.state, .spinner) come from whoever loads them (QueryState imports ui.css and forms.css).
 */
import { useTranslation } from 'react-i18next';

/** A polite "loading" status with a spinner. */
export function LoadingState() {
  const { t } = useTranslation();
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p>{t('common.loading')}</p>
    </div>
  );
}

export interface ErrorStateProps {
  /** What went wrong, already translated. */
  message: string;
  /** Shows a "retry" button that calls it. */
  onRetry?: () => void;
}

/** An alert saying what went wrong, with a retry button when there is something to retry. */
export function ErrorState({ message, onRetry }: ErrorStateProps) {
  const { t } = useTranslation();
  return (
    <div className="state state-error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
