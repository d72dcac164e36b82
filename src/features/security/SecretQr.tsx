/**
 * The authenticator key's otpauth:// URI as a QR code, for the member's app to scan. `qrcode` renders SVG
 * text (no canvas), shown through an <img> data URL; the key is also shown as text beside it.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function SecretQr({ uri }: { uri: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSrc(null);
    void import('qrcode')
      .then((qr) => qr.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [uri]);
  return (
    <div className="qr">
      {src ? (
        <img src={src} width={180} height={180} alt={t('security.twoFactor.qrAlt')} />
      ) : (
        <span className="spinner" aria-hidden="true" />
      )}
    </div>
  );
}
