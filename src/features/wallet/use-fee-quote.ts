/**
 * The fee and the amount received for what the member typed (/api/withdraw/fee), asked a moment after they
 * stop typing. Quotes for an amount that is no longer in the field are dropped.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api';
import type { WireNetwork, WithdrawFeeQuote } from '../../../engine/index';
import { parseAmountText } from '../../../engine/index';

export const QUOTE_DELAY_MS = 300;

export function useFeeQuote(network: WireNetwork, amount: string): WithdrawFeeQuote | null {
  const [quote, setQuote] = useState<{ key: string; value: WithdrawFeeQuote } | null>(null);
  const key = `${network}|${amount.trim()}`;
  const value = parseAmountText(amount);
  const askable = value !== null && value > 0n;

  useEffect(() => {
    if (!askable) return;
    let live = true;
    const timer = setTimeout(() => {
      api
        .call('/api/withdraw/fee', { network, amount: amount.trim() }, { silent: true })
        .then((answer) => live && setQuote({ key, value: answer }))
        .catch(() => undefined);
    }, QUOTE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [askable, network, amount, key]);

  return askable && quote?.key === key ? quote.value : null;
}
