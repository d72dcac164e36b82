/**
 * /contract, the Trade tab: one pair at a time (from ?symbol=, BTC/USDT by default) with its live price, the
 * spot, contract and option forms, the pair's order book with its depth chart under it, and the member's
 * current delegations, history and positions. Every price is simulated in demo mode, and says so.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../ui/Amount';
import { DepthChart } from '../../ui/DepthChart';
import { OfflineNote } from '../../ui/OfflineNote';
import { Change } from '../../ui/Change';
import { klineHref } from '../../ui/QuoteList';
import { SimulatedNote } from '../../ui/SimulatedNote';
import { MarketSourceNote } from '../../ui/MarketSourceNote';
import { useQuotes } from '../../lib/use-quotes';
import { PairPicker } from '../../ui/PairPicker';
import { ContractForm } from './ContractForm';
import { FundingTicker } from './FundingTicker';
import { OptionForm } from './OptionForm';
import { OrderBook } from './OrderBook';
import { OrdersPanel } from './OrdersPanel';
import { PositionsPanel } from './PositionsPanel';
import { SpotForm } from './SpotForm';
import { availableOf, useAccountVersion, useAssets } from './use-account';
import { PATHS } from '../../lib/paths';
import '../../ui/market.css';
import './trade.css';

type Market = 'spot' | 'contract' | 'option';
const MARKETS: Market[] = ['spot', 'contract', 'option'];
export const DEFAULT_SYMBOL = 'BTC/USDT';

export function TradePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const symbol = params.get('symbol') ?? DEFAULT_SYMBOL;
  // The K-line's Buy/Sell bar opens this screen with `side=buy` or `side=sell`: the forms start on it.
  const sideParam = params.get('side');
  const side = sideParam === 'buy' || sideParam === 'sell' ? sideParam : undefined;
  const base = symbol.split('/')[0] ?? symbol;
  const [market, setMarket] = useState<Market>('spot');
  const [panel, setPanel] = useState<'orders' | 'positions'>('orders');
  const [picked, setPicked] = useState<string | null>(null);
  const { quotes } = useQuotes();
  const quote = quotes.find((q) => q.symbol === symbol);
  const [version, bump] = useAccountVersion();
  const assets = useAssets(quotes);
  const latest = quote?.latest ?? '0';

  return (
    <div className="page trade">
      <OfflineNote />
      <SimulatedNote />
      <MarketSourceNote quote={quote} />
      <section className="card trade-head" aria-label={t('trade.pair')}>
        <PairPicker
          symbol={symbol}
          quotes={quotes}
          onPick={(s) => setParams({ symbol: s }, { replace: true })}
        />
        <div className="trade-price">
          <strong aria-live="off">
            <Amount value={quote ? latest : null} kind="price" symbol={symbol} />
          </strong>
          {quote && <Change value={quote.change24h} />}
          <Link className="text-link" to={klineHref(symbol)}>
            {t('trade.chart')}
          </Link>
        </div>
        {market === 'contract' && <FundingTicker quote={quote} />}
      </section>

      <div className="tabs-row" role="tablist" aria-label={t('trade.markets')}>
        {MARKETS.map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`tab-${m}`}
            aria-selected={market === m}
            aria-controls="trade-panel"
            className="tab-button"
            onClick={() => {
              setMarket(m);
              if (m !== 'contract') setPanel('orders');
            }}
          >
            {t(`trade.marketName.${m}`)}
          </button>
        ))}
      </div>

      <div className="trade-grid" id="trade-panel" role="tabpanel" aria-labelledby={`tab-${market}`}>
        <div className="card">
          {market === 'spot' && (
            <SpotForm
              symbol={symbol}
              base={base}
              latest={latest}
              availableUsdt={availableOf(assets.data, 'cash')}
              availableBase={availableOf(assets.data, 'cash', base)}
              pickedPrice={picked}
              initialSide={side}
              onPlaced={bump}
            />
          )}
          {market === 'contract' && (
            <ContractForm
              symbol={symbol}
              base={base}
              latest={latest}
              quote={quote}
              available={availableOf(assets.data, 'contract')}
              quotes={quotes}
              initialSide={side === undefined ? undefined : side === 'buy' ? 'long' : 'short'}
              onPlaced={bump}
            />
          )}
          {market === 'option' && (
            <OptionForm symbol={symbol} available={availableOf(assets.data, 'options')} onPlaced={bump} />
          )}
          <p className="terms">
            {t(`trade.account.${market}`)} <Link to={PATHS.userMove}>{t('trade.moveFunds')}</Link>
          </p>
        </div>
        <div className="card book-card">
          <OrderBook symbol={symbol} onPick={setPicked} />
          <DepthChart symbol={symbol} base={base} className="depth-card" />
        </div>
      </div>

      <section className="card">
        {market === 'contract' && (
          <div className="tabs-row" role="tablist" aria-label={t('trade.mine')}>
            {(['orders', 'positions'] as const).map((p) => (
              <button
                key={p}
                type="button"
                role="tab"
                aria-selected={panel === p}
                className="tab-button"
                onClick={() => setPanel(p)}
              >
                {t(`trade.${p}`)}
              </button>
            ))}
          </div>
        )}
        {market === 'contract' && panel === 'positions' ? (
          <PositionsPanel version={version} quotes={quotes} onChanged={bump} />
        ) : (
          <OrdersPanel market={market} version={version} onChanged={bump} />
        )}
      </section>
    </div>
  );
}
