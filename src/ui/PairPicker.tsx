/**
 * The pair picker of the trade and K-line screens (issue 26 item 3), instead of a native drop-down: a button
 * naming the pair opens a sheet with a search box and the pairs (the member's favourites first, starred), each
 * with its last price and 24h change. Keyboard and screen readers use it as a combobox: typing filters,
 * the arrow keys (Home, End) move through the list, Enter picks, Escape closes and returns focus to the button;
 * a touch or click picks a pair directly.
 */
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../engine/index';
import { Amount } from './Amount';
import { Change } from './Change';
import { Dialog } from './Dialog';
import { Icon } from './icons';
import { useFavourites } from '../lib/favourites';
import { searchQuotes } from '../lib/market-view';
import './pair-picker.css';

export interface PairPickerProps {
  symbol: string;
  quotes: readonly Quote[];
  onPick: (symbol: string) => void;
}

export function PairPicker({ symbol, quotes, onPick }: PairPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [base = symbol, quote = ''] = symbol.split('/');
  return (
    <>
      <button
        type="button"
        className="pair-button"
        aria-haspopup="dialog"
        aria-label={t('market.pairSheet.open', { symbol })}
        onClick={() => setOpen(true)}
      >
        {/* One left-to-right name (a flex item each would be reordered right to left). */}
        <span dir="ltr">
          <strong>{base}</strong>
          {quote && <span className="muted">/{quote}</span>}
        </span>
        <span className="pair-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <PairSheet
          symbol={symbol}
          quotes={quotes}
          onClose={() => setOpen(false)}
          onPick={(next) => {
            setOpen(false);
            if (next !== symbol) onPick(next);
          }}
        />
      )}
    </>
  );
}

function PairSheet({ symbol, quotes, onClose, onPick }: PairPickerProps & { onClose: () => void }) {
  const { t } = useTranslation();
  const favourites = useFavourites();
  const [query, setQuery] = useState('');
  const listId = useId();
  const optionId = (s: string) => `${listId}-${s.replace(/\W/g, '_')}`;
  const starred = new Set(favourites.symbols);
  // Favourites first (in the order starred), then the other pairs in the feed's order.
  const ordered = [
    ...favourites.symbols.map((s) => quotes.find((q) => q.symbol === s)).filter((q): q is Quote => !!q),
    ...quotes.filter((q) => !starred.has(q.symbol)),
  ];
  const shown = searchQuotes(ordered, query);
  const current = shown.findIndex((q) => q.symbol === symbol);
  const [active, setActive] = useState(current < 0 ? 0 : current);
  const at = Math.min(active, shown.length - 1);
  const activeQuote = at >= 0 ? shown[at] : undefined;

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const last = shown.length - 1;
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: last };
    const next = moves[e.key];
    if (next !== undefined && last >= 0) {
      e.preventDefault();
      setActive(Math.max(0, Math.min(last, next)));
    } else if (e.key === 'Enter' && activeQuote) {
      e.preventDefault();
      onPick(activeQuote.symbol);
    }
  }

  return (
    <Dialog title={t('market.pairSheet.title')} onClose={onClose}>
      <div className="market-search">
        <Icon name="search" className="search-icon" />
        <input
          type="search"
          role="combobox"
          aria-label={t('market.search')}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeQuote ? optionId(activeQuote.symbol) : undefined}
          placeholder={t('market.searchPlaceholder')}
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      <ul className="pair-options" role="listbox" id={listId} aria-label={t('market.pairSheet.title')}>
        {shown.map((q, i) => (
          <li
            key={q.symbol}
            id={optionId(q.symbol)}
            role="option"
            aria-selected={q.symbol === symbol}
            className={i === at ? 'pair-option pair-option-active' : 'pair-option'}
            onClick={() => onPick(q.symbol)}
            onMouseMove={() => setActive(i)}
          >
            <span className="pair-option-name">
              {starred.has(q.symbol) && (
                <span className="pair-star" aria-label={t('market.view.favourites')}>
                  ★
                </span>
              )}
              <strong>{q.base}</strong>
              <span className="muted">/USDT</span>
            </span>
            <span className="pair-option-price">
              <Amount value={q.latest} kind="price" symbol={q.symbol} />
            </span>
            <Change value={q.change24h} />
          </li>
        ))}
      </ul>
      {shown.length === 0 && (
        <p className="muted" role="status">
          {t('market.noMatch', { query: query.trim() })}
        </p>
      )}
    </Dialog>
  );
}
