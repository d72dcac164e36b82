/**
 * The deposit address as a QR code. `qrcode` renders SVG text (no canvas, so it also works in tests); it is
 * shown through an <img> data URL rather than injected markup. The address itself is the accessible name.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function AddressQr({ address }: { address: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSrc(null);
    void import('qrcode')
      .then((qr) => qr.toString(address, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [address]);
  return (
    <div className="qr">
      {src ? (
        <img src={src} width={180} height={180} alt={t('recharge.qrAlt', { address })} />
      ) : (
        <span className="spinner" aria-hidden="true" />
      )}
    </div>
  );
}
