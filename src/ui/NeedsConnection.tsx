/**
 * Wraps a form whose action cannot wait in the outbox (a key-gated action: withdrawal, VIP, product and
 * mining purchases; a market order, whose price is the moment's): offline, every control inside is disabled
 * before the member types anything, and a note says why. It comes back by itself when the device is online.
 */
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnlineStatus } from '../pwa/online';
import './ui.css';

export function NeedsConnection({
  children,
  when = true,
  note,
}: {
  children: ReactNode;
  when?: boolean;
  /** Why this form in particular cannot wait (else the general note). */
  note?: string;
}) {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const noteId = useId();
  const refused = when && !online;
  return (
    <>
      {refused && (
        <p id={noteId} className="needs-connection" role="status">
          {note ?? t('outbox.needsConnection')}
        </p>
      )}
      <fieldset className="bare-fieldset" disabled={refused} aria-describedby={refused ? noteId : undefined}>
        {children}
      </fieldset>
    </>
  );
}
