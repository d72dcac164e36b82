/** /finance/livecoin: live coin prices inside the Finance area, the same live list as the Quotes tab. */
import { useTranslation } from 'react-i18next';
import { OfflineNote } from '../../ui/OfflineNote';
import { QueryState } from '../../ui/QueryState';
import { QuoteList } from '../../ui/QuoteList';
import { SimulatedNote } from '../../ui/SimulatedNote';
import { useQuotes } from '../../lib/use-quotes';
import '../../ui/market.css';

export function LivecoinPage() {
  const { t } = useTranslation();
  const { status, quotes, error, reload } = useQuotes();
  return (
    <div className="page livecoin">
      <OfflineNote />
      <SimulatedNote />
      <section className="card" aria-labelledby="livecoin-heading">
        <h2 id="livecoin-heading" className="section-title">
          {t('finance.livecoin')}
        </h2>
        {status === 'ready' && quotes.length > 0 && (
          <QuoteList quotes={quotes} label={t('finance.livecoin')} />
        )}
        <QueryState
          status={status}
          error={error}
          onRetry={reload}
          isEmpty={quotes.length === 0}
          emptyText={t('market.empty')}
        />
      </section>
    </div>
  );
}
