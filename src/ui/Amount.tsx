/**
 * The one way a figure is shown (issue 26): formatted by the money module at its kind's places (USDT 2, a
 * price at its pair's tick, a quantity at its step), grouped in the member's locale, left to right in every
 * language, and never wrapped inside itself: it stays on one line, and where its box is narrower it is cut
 * with an ellipsis while the exact value stays in the text, its `title` and its `value` (a `data` element).
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatFigure, type FigureSpec } from '../lib/format';
import type { FirstDataName } from '../lib/first-data';
import './amount.css';

export interface AmountProps extends FigureSpec {
  /** A decimal string (API.md); null or undefined shows "--" (not known yet). */
  value: string | null | undefined;
  /** "USDT", "BTC", "%": after the figure, joined to it by a no-break space. */
  unit?: string;
  /** Before the figure, inside it: a record's "+" or "-". */
  prefix?: string;
  /**
   * Let the unit move to the next line when figure and unit do not fit side by side (a narrow cell of a
   * three-column grid); the figure itself still never breaks.
   */
  wrapUnit?: boolean;
  className?: string;
  /** Shown instead of "--" when there is no value (e.g. "None" for a liquidation price that cannot be hit). */
  empty?: string;
  /**
   * The screen's first real data (src/lib/first-data.ts): named for the Element Timing API on the figure
   * only, never on its "--", so the browser reports the paint of the figure.
   */
  timing?: FirstDataName;
}

/** A figure that never breaks inside itself, with its unit (joined, or on the next line with `wrapUnit`). */
export function Amount({
  value,
  unit,
  prefix = '',
  wrapUnit,
  className,
  empty,
  timing,
  ...spec
}: AmountProps) {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const classes = className ? `amount ${className}` : 'amount';
  if (value === null || value === undefined) {
    return <span className={classes}>{empty ?? '--'}</span>;
  }
  const text = formatFigure(value, spec, locale);
  // Inside the figure's own no-wrap box a plain space joins the unit: it cannot break there.
  const tail = !unit ? '' : unit === '%' ? '%' : ` ${unit}`;
  const apart = Boolean(wrapUnit && unit && unit !== '%');
  // The exact figure for the title: what is cut for the screen is still there for whoever needs it.
  const title = `${prefix}${formatAmount(value, { locale })}${tail}`;
  const figure = (
    <data className={apart ? 'amount' : classes} value={value} dir="ltr" title={title} elementtiming={timing}>
      {prefix}
      {text}
      {apart ? '' : tail}
    </data>
  );
  if (!apart) return figure;
  return (
    <span className={`amount-group${className ? ` ${className}` : ''}`} dir="ltr">
      {figure} <span className="amount-unit">{unit}</span>
    </span>
  );
}

/**
 * The same formatting for a figure inside a sentence (a toast, a hint, a button): a figure has no break
 * opportunity inside it, so the sentence wraps around it, at most between it and its unit.
 */
export function useFigure(): (value: string, spec?: FigureSpec & { unit?: string }) => string {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const rtl = i18n.dir(locale) === 'rtl';
  return useCallback(
    (value, spec = {}) => {
      const text = formatFigure(value, spec, locale);
      const whole = !spec.unit ? text : spec.unit === '%' ? `${text}%` : `${text} ${spec.unit}`;
      // In a right-to-left sentence the figure and its unit keep their left-to-right order (an isolate).
      return rtl && spec.unit ? `\u2066${whole}\u2069` : whole;
    },
    [locale, rtl],
  );
}
