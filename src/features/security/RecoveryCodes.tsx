/**
 * The ten one-time recovery codes, shown once (the server keeps only their digests): copy them, save them
 * as a text file, and say they are written down.
 */
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../ui/CopyButton';

export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  function download() {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'strata-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }
  return (
    <div className="recovery" role="region" aria-labelledby="recovery-title">
      <h3 id="recovery-title" className="subsection-title">
        {t('security.recovery.title')}
      </h3>
      <p className="warning-note" role="status">
        {t('security.recovery.once')}
      </p>
      <ol className="recovery-codes" dir="ltr" translate="no" aria-label={t('security.recovery.title')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="form-actions">
        <CopyButton text={text} label={t('security.recovery.copy')} />
        <button type="button" className="button small" onClick={download}>
          {t('security.recovery.download')}
        </button>
      </div>
      <button type="button" className="button primary block" onClick={onDone}>
        {t('security.recovery.saved')}
      </button>
    </div>
  );
}
