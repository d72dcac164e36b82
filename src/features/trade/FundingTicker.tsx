/**
 * The contract's mark price beside the last price, and its estimated funding rate with the countdown to the
 * next funding time (00:00, 08:00, 16:00 UTC). The countdown is the quote's own clock (its `time`, which the
 * demo's fast-forward moves), so it ticks with the feed and stops, marked by the page's offline notice, when
 * the feed does.
 */
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../../engine/index';
import { Amount } from '../../ui/Amount';

/** Seconds as "hh:mm:ss" (a countdown never passes 8 hours). */
export function countdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export function FundingTicker({ quote }: { quote: Quote | undefined }) {
  const { t } = useTranslation();
  const left =
    quote?.nextFundingTime !== undefined ? countdown(quote.nextFundingTime - quote.time) : undefined;
  return (
    <dl className="funding-ticker">
      <div>
        <dt>{t('tradeScreen.markPrice')}</dt>
        <dd>
          <Amount value={quote?.markPrice} kind="price" symbol={quote?.symbol} />
        </dd>
      </div>
      <div>
        <dt>{t('tradeScreen.fundingCountdown')}</dt>
        <dd>
          <Amount value={quote?.fundingRate} kind="percent" unit="%" decimals={4} />
          {left !== undefined && (
            <>
              {' / '}
              <time dir="ltr">{left}</time>
            </>
          )}
        </dd>
      </div>
    </dl>
  );
}
