/**
 * One document photo: a file input that uploads at once (POST /api/user/uploads, multipart `file`) and
 * previews the chosen image from the device (the uploaded copy lives behind the API, which an <img> cannot
 * authenticate to). Reports the uploaded relative URL, or '' while there is none.
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { toFailure } from '../../machines/failure';
import { failureText } from '../../ui/failure-text';

export const ACCEPTED = 'image/png,image/jpeg,image/webp,image/gif';

/** Upload refusals with words of their own: the server's storage full (507), a file past 5 MiB (413). */
const UPLOAD_BOUNDS: Record<string, string> = {
  '507': 'uploadLimits.storageFull',
  '413': 'uploadLimits.tooLarge',
};

export function UploadField({
  label,
  name,
  error,
  onUploaded,
}: {
  label: string;
  name: string;
  error?: string | undefined;
  onUploaded: (url: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'uploading' | 'done'>('idle');
  const [uploadError, setUploadError] = useState<string | undefined>();

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const choose = async (file: File | undefined) => {
    onUploaded('');
    setUploadError(undefined);
    if (!file) return;
    // Some WebViews (and jsdom) lack object URLs: the upload still works, only the preview is missing.
    if (typeof URL.createObjectURL === 'function') setPreview(URL.createObjectURL(file));
    setState('uploading');
    const form = new FormData();
    form.append('file', file);
    try {
      const { url } = await api.call('/api/user/uploads', form, { silent: true });
      onUploaded(url);
      setState('done');
    } catch (e) {
      const failure = toFailure(e);
      // The server's upload bounds (docs/DEPLOY.md "Uploads"): 507 is its storage, not the device's.
      const bound = UPLOAD_BOUNDS[String(failure.code)];
      setUploadError(bound ? t(bound) : failureText(failure, t));
      setState('idle');
    }
  };

  const shown = uploadError ?? error;
  const titleId = `${id}-title`;
  const statusId = `${id}-status`;
  return (
    <div className="upload">
      <span id={titleId} className="field-label">
        {label}
      </span>
      <div className="upload-box" aria-hidden="true">
        {preview ? <img src={preview} alt="" /> : t('account.cert.noFile')}
      </div>
      {/* The native control's "No file chosen" text does not fit half a phone screen: it stays focusable and
          named by the title, and its label is the visible button. */}
      <input
        id={id}
        name={name}
        type="file"
        className="upload-input"
        accept={ACCEPTED}
        aria-labelledby={titleId}
        aria-invalid={shown ? true : undefined}
        aria-describedby={statusId}
        onChange={(e) => void choose(e.target.files?.[0])}
      />
      <label htmlFor={id} className="button small upload-button">
        {preview ? t('account.cert.replace') : t('account.cert.choose')}
      </label>
      <p id={statusId} className={shown ? 'field-error' : 'field-hint'} role={shown ? 'alert' : 'status'}>
        {shown ??
          (state === 'uploading'
            ? t('account.cert.uploading')
            : state === 'done'
              ? t('account.cert.uploaded')
              : '')}
      </p>
    </div>
  );
}
