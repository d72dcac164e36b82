/**
 * The quotes' loading state: rows shaped like QuoteList's (same classes, so the same heights), with grey
 * bars where the figures will be, and "Loading…" for screen readers. Static on purpose: a spinning icon
 * repaints every frame while the app starts, competing with it for the phone's CPU, and rows of the final
 * size mean nothing moves when the quotes arrive. Light (no data or format imports): /home's build-time
 * shell and its Suspense fallback render it.
 */
import { useTranslation } from 'react-i18next';
import './market.css';
import './ui.css';

/** One bar, as wide as the figure it stands for; it sits on the text's line, so the line keeps its height. */
function Bar({ width }: { width: string }) {
  return <span className="skeleton-bar" style={{ inlineSize: width }} />;
}

/** A column of a row: its main figure and, unless compact, the smaller line under it. */
function Column({ className, main, sub }: { className: string; main: string; sub: string | null }) {
  return (
    <span className={className}>
      <span>
        <Bar width={main} />
      </span>
      {sub !== null && (
        <span className="quote-sub">
          <Bar width={sub} />
        </span>
      )}
    </span>
  );
}

export function QuoteListSkeleton({ rows, compact = false }: { rows: number; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="quote-skeleton" role="status" aria-live="polite">
      <span className="visually-hidden">{t('common.loading')}</span>
      <ul className="quote-list" aria-hidden="true">
        {Array.from({ length: rows }, (_, i) => (
          <li key={i}>
            <span className="quote-row">
              <Column className="quote-pair" main="5.5em" sub={compact ? null : '7em'} />
              <Column className="quote-price" main="5em" sub={compact ? null : '11em'} />
              <span className="change change-flat change-block">
                <Bar width="3.5em" />
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
