/** Copies a value and says so in a toast; a failed copy tells the member to copy by hand. */
import { useTranslation } from 'react-i18next';
import { toastStore } from '../state/toast-store';
import { copyText } from '../lib/clipboard';

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation();
  async function copy() {
    const ok = await copyText(text);
    toastStore.show(ok ? t('common.copied') : t('common.copyFailed'), ok ? 'success' : 'error');
  }
  return (
    <button type="button" className="button small" onClick={() => void copy()}>
      {label ?? t('common.copy')}
    </button>
  );
}
