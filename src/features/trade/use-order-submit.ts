/**
 * The submit cycle the order forms share: field errors show only after a first attempt; an invalid field
 * takes focus instead of sending; the buttons are disabled while the call runs; on success the form shows a
 * toast, clears its amount and tells the page, and on a refusal it keeps what the member typed (the api
 * client has already shown the catalogue message: 4011, 400, or 403 for settings with a position open).
 */
import { useState } from 'react';
import { toastStore } from '../../state/toast-store';

export interface OrderAttempt {
  form: HTMLFormElement | null;
  /** The `name` of the first invalid input, or nothing when the order may be sent. */
  invalid: string | null | undefined;
  /** Places the order and answers the success toast's text; null when it waits in the outbox (already said). */
  send: () => Promise<string | null>;
  /** Empties the amount the member typed, after a success. */
  clear: () => void;
}

export function useOrderSubmit(onPlaced: () => void) {
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  async function attempt({ form, invalid, send, clear }: OrderAttempt): Promise<void> {
    setSubmitted(true);
    if (invalid) {
      form?.querySelector<HTMLInputElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const text = await send();
      if (text !== null) toastStore.show(text, 'success');
      clear();
      setSubmitted(false);
      onPlaced();
    } catch {
      // Already shown by the api client.
    } finally {
      setBusy(false);
    }
  }

  return { submitted, busy, attempt };
}
