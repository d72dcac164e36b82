/** The authenticator key's otpauth:// URI as a QR code for the member's app to scan; the key is also shown as text. */
import { useTranslation } from 'react-i18next';
import { QrCode } from '../../ui/QrCode';

export function SecretQr({ uri }: { uri: string }) {
  const { t } = useTranslation();
  return <QrCode text={uri} alt={t('security.twoFactor.qrAlt')} />;
}
