/**
 * Text as a QR code (a deposit address, an authenticator's otpauth:// URI). `qrcode` renders SVG text (no
 * canvas, so it also works in tests), loaded when first needed and shown through an <img> data URL rather
 * than injected markup; a spinner stands in while it renders.
 */
import { useEffect, useState } from 'react';

export function QrCode({ text, alt }: { text: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSrc(null);
    void import('qrcode')
      .then((qr) => qr.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <div className="qr">
      {src ? (
        <img src={src} width={180} height={180} alt={alt} />
      ) : (
        <span className="spinner" aria-hidden="true" />
      )}
    </div>
  );
}
