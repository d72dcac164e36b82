/**
 * Renders whichever global popup is open (one at a time, see popup-store). Their bodies (the dialog, the
 * language, theme and service popups) load on the first open, so /home's first load carries none of them.
 */
import { lazy, Suspense } from 'react';
import { popupStore, usePopup } from '../../state/popup-store';

const PopupBody = lazy(() => import('./PopupBody'));

export function GlobalPopups() {
  const popup = usePopup();
  if (popup === null) return null;
  return (
    <Suspense fallback={null}>
      <PopupBody popup={popup} onClose={() => popupStore.close()} />
    </Suspense>
  );
}
