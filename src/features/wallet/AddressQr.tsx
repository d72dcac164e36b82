/** The deposit address as a QR code; the address itself is the image's accessible name. */
import { useTranslation } from 'react-i18next';
import { QrCode } from '../../ui/QrCode';

export function AddressQr({ address }: { address: string }) {
  const { t } = useTranslation();
  return <QrCode text={address} alt={t('recharge.qrAlt', { address })} />;
}
