/**
 * Take-profit and stop-loss of an open position (/api/position/tpsl): each a mark price at which the whole
 * position closes at market; empty removes it. Checked against the mark on the form (a long's take-profit
 * above it, stop-loss below; a short's the reverse), and again by the engine (4038, 4039).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LivePosition } from '../../../engine/index';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { Amount, useFigure } from '../../ui/Amount';
import { FormDialog } from '../../ui/FormDialog';
import { Field } from '../../ui/Field';
import { cleanAmount } from '../../lib/amount';
import { checkTrigger } from './order-rules';

export function TriggersDialog({
  position,
  onClose,
  onDone,
}: {
  position: LivePosition;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const figure = useFigure();
  const side = position.side === 'short' ? 'short' : 'long';
  const [takeProfit, setTakeProfit] = useState(position.takeProfit ?? '');
  const [stopLoss, setStopLoss] = useState(position.stopLoss ?? '');
  const tpReason = checkTrigger('tp', side, takeProfit, position.markPrice);
  const slReason = checkTrigger('sl', side, stopLoss, position.markPrice);
  const error = (reason: typeof tpReason) =>
    reason
      ? t(`tradeScreen.error.${reason}`, {
          mark: figure(position.markPrice, { kind: 'price', symbol: position.symbol }),
        })
      : undefined;

  async function send() {
    await api.call('/api/position/tpsl', {
      id: position.id,
      takeProfit: takeProfit.trim() ? takeProfit : null,
      stopLoss: stopLoss.trim() ? stopLoss : null,
    });
    toastStore.show(t('tradeScreen.triggersSaved'), 'success');
    onDone();
  }

  return (
    <FormDialog
      title={t('tradeScreen.triggersOf', { symbol: position.symbol })}
      submitLabel={t('common.confirm')}
      onClose={onClose}
      invalid={tpReason !== null || slReason !== null}
      onSubmit={send}
    >
      {(attempted) => (
        <>
          <dl className="figure-rows">
            <div>
              <dt>{t('tradeScreen.markPrice')}</dt>
              <dd>
                <Amount value={position.markPrice} kind="price" symbol={position.symbol} />
              </dd>
            </div>
            <div>
              <dt>{t('trade.liquidation')}</dt>
              <dd>
                <Amount
                  value={position.liquidationPrice}
                  kind="price"
                  symbol={position.symbol}
                  empty={t('trade.none')}
                />
              </dd>
            </div>
          </dl>
          <Field
            label={t('tradeScreen.takeProfit')}
            name="takeProfit"
            inputMode="decimal"
            autoComplete="off"
            value={takeProfit}
            error={attempted ? error(tpReason) : undefined}
            hint={t(`tradeScreen.tpHint.${side}`)}
            onChange={(e) => setTakeProfit(cleanAmount(e.target.value))}
            addon={<span className="unit">USDT</span>}
          />
          <Field
            label={t('tradeScreen.stopLoss')}
            name="stopLoss"
            inputMode="decimal"
            autoComplete="off"
            value={stopLoss}
            error={attempted ? error(slReason) : undefined}
            hint={t(`tradeScreen.slHint.${side}`)}
            onChange={(e) => setStopLoss(cleanAmount(e.target.value))}
            addon={<span className="unit">USDT</span>}
          />
          <p className="terms">{t('tradeScreen.triggersRule')}</p>
        </>
      )}
    </FormDialog>
  );
}
