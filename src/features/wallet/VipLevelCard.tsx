/** One VIP level: its deposit and terms, daily and monthly receive limits, and the buy or upgrade action. */
import { useTranslation } from 'react-i18next';
import type { VipLevelInfo } from '../../../engine/index';
import { Amount, useFigure } from '../../ui/Amount';

export interface VipLevelCardProps {
  level: VipLevelInfo;
  current: number;
  busy: boolean;
  onBuy: (level: VipLevelInfo) => void;
}

export function VipLevelCard({ level, current, busy, onBuy }: VipLevelCardProps) {
  const { t } = useTranslation();
  const figure = useFigure();
  const money = (v: string) => figure(v);
  const limit = (v: string | null) => (v === null ? t('vip.cannotReceive') : `${money(v)} USDT`);
  const isCurrent = level.level === current;
  const titleId = `vip-level-${level.level}`;
  return (
    <li className={`vip-level${isCurrent ? ' vip-current' : ''}`} aria-labelledby={titleId}>
      <div className="record-head">
        <h3 id={titleId} className="vip-name">
          VIP{level.level}
        </h3>
        {isCurrent && <span className="badge badge-good">{t('vip.current')}</span>}
      </div>
      <dl className="detail-list">
        <dt>{level.trial ? t('vip.trialFee') : t('vip.deposit')}</dt>
        <dd>
          <Amount value={level.deposit} unit="USDT" />
        </dd>
        <dt>{t('vip.dailyLimit')}</dt>
        <dd>{limit(level.dailyLimit)}</dd>
        <dt>{t('vip.monthlyLimit')}</dt>
        <dd>{limit(level.monthlyLimit)}</dd>
      </dl>
      {level.level > 0 && (
        <p className="muted">
          {level.trial
            ? t('vip.trialTerms', { days: level.validDays ?? 60 })
            : level.refundable
              ? t('vip.refundableTerms')
              : null}
        </p>
      )}
      {level.level > current && (
        <button type="button" className="button primary block" disabled={busy} onClick={() => onBuy(level)}>
          {current >= 2 ? t('vip.upgrade', { level: level.level }) : t('vip.buy', { level: level.level })}
        </button>
      )}
    </li>
  );
}
