/**
 * A modal dialog: role=dialog, aria-modal, labelled by its title, focus moved in and trapped, Escape and the
 * backdrop close it, focus returns to what opened it. Rendered in place (the app has one popup at a time);
 * while it is open everything outside it is `inert` (no focus, no clicks, hidden from screen readers) except
 * live regions such as the toasts, which must still be announced.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons under the content; a close button is shown when absent. */
  actions?: ReactNode;
  /** The session-expired dialog must be acknowledged: no backdrop close. */
  dismissible?: boolean;
}

export function Dialog({ title, onClose, children, actions, dismissible = true }: DialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const node = panel.current;
    const restore = node ? inertOutside(node) : () => undefined;
    const first = node?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? node)?.focus();
    return () => {
      restore();
      opener?.focus();
    };
  }, []);

  function onKeyDown(e: React.KeyboardEvent<HTMLDivElement>) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      e.preventDefault();
      return;
    }
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="dialog-backdrop" onClick={dismissible ? () => onCloseRef.current() : undefined}>
      <div
        ref={panel}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div className="dialog-body">{children}</div>
        <div className="dialog-actions">
          {actions ?? (
            <button type="button" className="button" onClick={() => onCloseRef.current()}>
              {t('common.close')}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

/** Live regions stay outside the inert page: a toast raised while a dialog is open is still announced. */
const LIVE = '[aria-live], [role="status"], [role="alert"]';

/**
 * Makes every element outside `node` inert, walking up to <body> and marking each ancestor's siblings, so
 * the page behind a dialog cannot be focused, clicked or read. Returns the undo.
 */
function inertOutside(node: HTMLElement): () => void {
  const changed: Element[] = [];
  for (let el: HTMLElement | null = node; el && el !== document.body; el = el.parentElement) {
    for (const sibling of el.parentElement?.children ?? []) {
      if (sibling === el || sibling.hasAttribute('inert') || sibling.matches(LIVE)) continue;
      if (sibling.tagName === 'SCRIPT' || sibling.tagName === 'STYLE') continue;
      sibling.setAttribute('inert', '');
      changed.push(sibling);
    }
  }
  return () => {
    for (const el of changed) el.removeAttribute('inert');
  };
}
