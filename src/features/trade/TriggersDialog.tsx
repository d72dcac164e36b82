/**
 * Take-profit and stop-loss of an open position (/api/position/tpsl): each a mark price at which the whole
 * position closes at market; empty removes it. Checked against the mark on the form (a long's take-profit
 * above it, stop-loss below; a short's the reverse), and again by the engine (4038, 4039).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { Amount } from '../../ui/Amount';
import { FormDialog } from '../../ui/FormDialog';
import { TriggerFields, triggerReasons, type Triggers } from './TriggerFields';
import type { PositionDialogProps } from './position-dialog';

export function TriggersDialog({ position, onClose, onDone }: PositionDialogProps) {
  const { t } = useTranslation();
  const side = position.side === 'short' ? 'short' : 'long';
  const [triggers, setTriggers] = useState<Triggers>({
    takeProfit: position.takeProfit ?? '',
    stopLoss: position.stopLoss ?? '',
  });
  const reasons = triggerReasons(side, triggers, position.markPrice);

  async function send() {
    const { takeProfit, stopLoss } = triggers;
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
      invalid={reasons.takeProfit !== null || reasons.stopLoss !== null}
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
          <TriggerFields
            symbol={position.symbol}
            side={side}
            mark={position.markPrice}
            value={triggers}
            onChange={setTriggers}
            showErrors={attempted}
          />
          <p className="terms">{t('tradeScreen.triggersRule')}</p>
        </>
      )}
    </FormDialog>
  );
}
