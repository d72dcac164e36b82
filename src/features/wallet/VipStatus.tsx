/**
 * The member's current level: the deposit held, the VIP1 trial countdown (or the expiry notice), and the
 * refund of a VIP2+ deposit.
 */
import { useTranslation } from 'react-i18next';
import { useFigure } from '../../ui/Amount';
import { countdownParts } from './use-server-clock';

export interface VipStatusProps {
  level: number;
  state: 'vip0' | 'trial' | 'active' | 'expired' | 'busy';
  remaining: number;
  deposit: string;
  notice: string | null;
  onRefund: () => void;
}

export function VipStatus({ level, state, remaining, deposit, notice, onRefund }: VipStatusProps) {
  const { t } = useTranslation();
  const figure = useFigure();
  const { days, time } = countdownParts(remaining);
  return (
    <section className="hero" aria-labelledby="vip-status">
      <h2 id="vip-status" className="hero-label">
        {t('vip.yourLevel')}
      </h2>
      <p className="hero-amount">VIP{level}</p>
      {level >= 2 && <p>{t('vip.held', { amount: figure(deposit) })}</p>}
      {state === 'trial' && (
        <p className="countdown" role="timer" aria-live="off">
          {t('vip.trialLeft', { days, time })}
        </p>
      )}
      {(state === 'expired' || notice) && level === 0 && (
        <p className="form-error" role="status">
          {t('errors.vipExpired')}
        </p>
      )}
      {state === 'vip0' && !notice && <p className="hint">{t('vip.none')}</p>}
      {state === 'active' && level >= 2 && (
        <button type="button" className="button block" onClick={onRefund}>
          {t('vip.refund')}
        </button>
      )}
    </section>
  );
}
