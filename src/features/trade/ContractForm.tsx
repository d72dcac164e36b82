/**
 * Contract order form: leverage and margin mode (they apply to all contracts and cannot change while a
 * position is open, K6), quantity, then open long or open short at market (contract orders are market
 * orders). The margin it freezes is estimated exactly from the latest price (K1); a cross order's preview
 * shows the account's liquidation price after the order (issue 24).
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { useFigure } from '../../ui/Amount';
import { Field, SelectField } from '../../ui/Field';
import { parseAmountText, type PositionRecord, type Quote } from '../../../engine/index';
import { cleanAmount } from '../../lib/amount';
import { checkPositive, marginFor, microToString } from './order-rules';
import { OrderPreview } from './OrderPreview';
import { Segmented } from '../../ui/Segmented';
import { UpDownActions } from './UpDownActions';
import { useCached } from '../../sync/cache';
import { useReplicaTables } from '../../sync/live';
import { previewAccountFromReplica, type ReplicaBalance } from '../../sync/member-views';
import { sendWrite } from '../../sync/app-writes';
import { useOrderSubmit } from './use-order-submit';

export const LEVERAGES = [1, 2, 3, 5, 10, 20, 50, 100];
const ACCOUNT_TABLES = ['positions', 'balances'] as const;

export interface ContractFormProps {
  symbol: string;
  base: string;
  latest: string;
  available: string | undefined;
  /** The quotes the trade screen shows: their mark prices value the account (as the positions list's). */
  quotes: readonly Quote[];
  onPlaced: () => void;
}

export function ContractForm({ symbol, base, latest, available, quotes, onPlaced }: ContractFormProps) {
  const { t } = useTranslation();
  // The member's saved settings, read from the device cache (refreshed from the server when online); what
  // the member picks shows at once and is saved through the outbox (a settings write, docs/OFFLINE.md).
  const saved = useCached(
    'positionSettings',
    () => api.call('/api/position/settings', {}, { silent: true }),
    {
      member: true,
    },
  );
  const [picked, setPicked] = useState<{ leverage?: number; marginMode?: 'cross' | 'isolated' }>({});
  const leverage = picked.leverage ?? saved.data?.leverage ?? 10;
  const marginMode = picked.marginMode ?? saved.data?.marginMode ?? 'cross';
  const [volume, setVolume] = useState('');
  const { submitted, busy, attempt } = useOrderSubmit(onPlaced);
  const figure = useFigure();
  // A cross order's liquidation price is the account's after the order: the replica's positions, free
  // balance and marks, as the positions list values them.
  const replica = useReplicaTables(ACCOUNT_TABLES);
  const positions = replica.tables.positions as PositionRecord[] | undefined;
  const balances = replica.tables.balances as ReplicaBalance[] | undefined;
  const account = useMemo(
    () => (positions && balances ? previewAccountFromReplica(positions, balances, quotes) : undefined),
    [positions, balances, quotes],
  );

  function choose(change: { leverage?: number; marginMode?: 'cross' | 'isolated' }) {
    setPicked((p) => ({ ...p, ...change }));
    sendWrite('/api/position/settings', change).then(
      (outcome) => {
        if (!outcome.queued) saved.reload();
      },
      // Refused (K6: not while a position is open): the catalogue message was shown; the saved value returns.
      () =>
        setPicked((p) => ({ ...p, ...Object.fromEntries(Object.keys(change).map((k) => [k, undefined])) })),
    );
  }

  const margin = marginFor(latest, volume, leverage);
  const have = available === undefined ? null : parseAmountText(available);
  const reason =
    checkPositive(volume) ?? (margin !== null && have !== null && margin > have ? 'overAvailable' : null);
  const error = submitted && reason ? t(`trade.error.volume.${reason}`, { base }) : undefined;

  function open(side: 'open_long' | 'open_short', form: HTMLFormElement | null) {
    return attempt({
      form,
      invalid: reason ? 'volume' : null,
      send: async () => {
        await api.call('/api/order/place', {
          symbol,
          market: 'contract',
          side,
          type: 'market',
          volume,
          leverage,
          marginMode,
        });
        return t(side === 'open_long' ? 'trade.openedLong' : 'trade.openedShort');
      },
      clear: () => setVolume(''),
    });
  }

  return (
    <form
      className="form trade-form"
      noValidate
      aria-label={t('trade.contractForm')}
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        void open('open_long', e.currentTarget);
      }}
    >
      {/* Contract orders are market orders: they need a connection. */}
      <NeedsConnection>
        <SelectField
          label={t('trade.leverage')}
          value={String(leverage)}
          onChange={(v) => choose({ leverage: Number(v) })}
          options={LEVERAGES.map((l) => ({ value: String(l), label: `${l}x` }))}
        />
        <Segmented
          label={t('trade.marginMode')}
          value={marginMode}
          onChange={(mode) => choose({ marginMode: mode })}
          options={[
            { value: 'cross', label: t('trade.cross') },
            { value: 'isolated', label: t('trade.isolated') },
          ]}
        />
        <p className="terms">{t('trade.settingsNote')}</p>
        <Field
          label={t('trade.volume', { base })}
          name="volume"
          inputMode="decimal"
          autoComplete="off"
          value={volume}
          error={error}
          hint={t('trade.availableIs', { amount: figure(available ?? '0', { unit: 'USDT' }) })}
          onChange={(e) => setVolume(cleanAmount(e.target.value))}
          addon={<span className="unit">{base}</span>}
        />
        <p className="terms" aria-live="polite">
          {t('trade.marginEstimate', {
            // An estimate, and it says so ("about"): rounded to cents.
            amount:
              margin === null ? '--' : figure(microToString(margin), { unit: 'USDT', rounding: 'half-up' }),
            leverage,
          })}
        </p>
        <OrderPreview
          {...{ symbol, volume, leverage, marginMode, available }}
          account={marginMode === 'cross' ? account : undefined}
          market="contract"
        />
        <UpDownActions
          busy={busy}
          up={t('trade.openLong')}
          down={t('trade.openShort')}
          onDown={(form) => void open('open_short', form)}
        />
      </NeedsConnection>
    </form>
  );
}
