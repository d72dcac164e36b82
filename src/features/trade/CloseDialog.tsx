/**
 * Closes all or part of a position at market (/api/order/place close_long/close_short with a quantity up to
 * the position's size, K8): quick 25/50/75/100%, the quantity at the pair's step; what is left stays open
 * with its margin share, take-profit and stop-loss.
 */
import { useState } from 'react';
import { QuickAmounts } from './QuickAmounts';
import { useTranslation } from 'react-i18next';
import { mulDiv, pairScale, parseAmountText } from '../../../engine/index';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { Amount, useFigure } from '../../ui/Amount';
import { FormDialog } from '../../ui/FormDialog';
import { Field } from '../../ui/Field';
import { cleanAmount } from '../../lib/amount';
import { checkPositive, microToString } from './order-rules';
import type { PositionDialogProps } from './position-dialog';

/** `quarters` quarters of `size`, cut down to `decimals` places (all of it at 4). */
export function shareOf(size: string, quarters: number, decimals: number): string {
  const total = parseAmountText(size) ?? 0n;
  if (quarters >= 4) return size;
  const step = 10n ** BigInt(Math.max(0, 6 - decimals));
  const part = mulDiv(total, BigInt(quarters), 4n, 'floor');
  return microToString(part - (part % step));
}

export function CloseDialog({ position, onClose, onDone }: PositionDialogProps) {
  const { t } = useTranslation();
  const figure = useFigure();
  const base = position.symbol.split('/')[0] ?? position.symbol;
  const decimals = pairScale(position.symbol)?.quantityDecimals ?? 4;
  const [volume, setVolume] = useState(position.volume);
  const size = parseAmountText(position.volume) ?? 0n;
  const wanted = parseAmountText(volume);
  const reason =
    checkPositive(volume) ?? (wanted !== null && wanted > size ? ('overPosition' as const) : null);
  const error = !reason
    ? undefined
    : reason === 'overPosition'
      ? t('tradeScreen.error.overPosition')
      : t(`trade.error.volume.${reason}`, { base });

  async function send() {
    await api.call('/api/order/place', {
      symbol: position.symbol,
      market: 'contract',
      side: position.side === 'long' ? 'close_long' : 'close_short',
      type: 'market',
      volume,
    });
    toastStore.show(
      wanted === size
        ? t('trade.closed')
        : t('tradeScreen.closedPart', {
            amount: figure(volume, { kind: 'quantity', symbol: position.symbol, unit: base }),
          }),
      'success',
    );
    onDone();
  }

  return (
    <FormDialog
      title={t('tradeScreen.closeOf', { symbol: position.symbol, side: t(`trade.sides.${position.side}`) })}
      submitLabel={t('trade.close')}
      onClose={onClose}
      invalid={reason !== null}
      onSubmit={send}
    >
      {(attempted) => (
        <>
          <dl className="figure-rows">
            <div>
              <dt>{t('trade.size')}</dt>
              <dd>
                <Amount value={position.volume} kind="quantity" symbol={position.symbol} unit={base} />
              </dd>
            </div>
            <div>
              <dt>{t('tradeScreen.markPrice')}</dt>
              <dd>
                <Amount value={position.markPrice} kind="price" symbol={position.symbol} />
              </dd>
            </div>
          </dl>
          <Field
            label={t('trade.volume', { base })}
            name="volume"
            inputMode="decimal"
            autoComplete="off"
            value={volume}
            error={attempted ? error : undefined}
            onChange={(e) => setVolume(cleanAmount(e.target.value))}
            addon={<span className="unit">{base}</span>}
          />
          <QuickAmounts
            labelFor={(percent) => t('tradeScreen.quickClose', { percent })}
            onPick={(q) => setVolume(shareOf(position.volume, q, decimals))}
          />
          <p className="terms">{t('tradeScreen.closeRule')}</p>
        </>
      )}
    </FormDialog>
  );
}
