/**
 * Demo mode only: pays the member's own deposit address on the simulated chain (/api/demo/chain/send), so
 * a deposit can be watched confirming. Labelled as a simulation in words, not just colour.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { WireNetwork } from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { Field } from '../../ui/Field';
import { checkAmount, cleanAmount } from '../../lib/amount';
import { networkLabel } from '../../ui/NetworkChoice';

export function DemoPayPanel(props: { network: WireNetwork; address: string; onSent: () => void }) {
  const { network, address, onSent } = props;
  const { t } = useTranslation();
  const [amount, setAmount] = useState('100');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function send(e: FormEvent) {
    e.preventDefault();
    const reason = checkAmount(amount, '0.000001');
    if (reason) return setError(t(`wallet.amountError.${reason}`, { min: '0.000001' }));
    setBusy(true);
    try {
      await api.call('/api/demo/chain/send', { network, address, amount });
      toastStore.show(t('recharge.demoSent', { amount, network: networkLabel(network) }), 'success');
      onSent();
    } catch {
      // The client already showed the catalogue's toast.
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card demo-panel" aria-labelledby="demo-pay-title">
      <h2 id="demo-pay-title" className="section-title">
        {t('recharge.demoTitle')}
      </h2>
      <p className="demo-note">{t('recharge.demoNote')}</p>
      <form className="form" onSubmit={(e) => void send(e)} noValidate>
        <Field
          label={t('recharge.demoAmount')}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          error={error}
          addon={<span className="unit">USDT</span>}
          onChange={(e) => {
            setAmount(cleanAmount(e.target.value));
            setError(undefined);
          }}
        />
        <button type="submit" className="button block" disabled={busy}>
          {busy ? t('common.loading') : t('recharge.demoSend')}
        </button>
      </form>
    </section>
  );
}
