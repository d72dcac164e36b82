/**
 * /user/statement: the account statement for a date range (docs/SPEC.md §12), made on the device from the
 * replica (deposits, withdrawals, internal transfers, earnings, and the ledger lines of contract PnL,
 * liquidations, funding, fees and moves between accounts), shown as a count and downloaded as CSV with
 * exact decimal amounts. Works offline from the last copy, whose time is shown.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepositRecord, LedgerLinesView, TransferRecord, WithdrawalRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { statusLabel } from '../../lib/status';
import { useReplicaTables } from '../../sync/live';
import { StaleNote } from '../../ui/Freshness';
import { Field } from '../../ui/Field';
import { useSiteDemo } from '../../api/site-config';
import { statementCsv, statementRows, type StatementKind, type StatementSources } from './statement';
import './records.css';

const TABLES = ['deposits', 'withdrawals', 'transfers', 'profitLog', 'ledgerLines'] as const;

/** The kinds named in the statementLines section (the ledger's); the others are in statement.kind. */
const KIND_KEYS: Readonly<Record<string, true>> = {
  realisedPnl: true,
  liquidation: true,
  insuranceClearance: true,
  funding: true,
  fee: true,
  moveIn: true,
  moveOut: true,
};

function today(offsetDays = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  return formatTime(d.getTime(), 'YYYY-MM-DD');
}

export function StatementPage() {
  const { t } = useTranslation();
  const demo = useSiteDemo();
  const { tables, pulledAt, everLoaded } = useReplicaTables(TABLES);
  const [range, setRange] = useState({ from: today(-30), to: today() });
  const rows = useMemo(
    () =>
      statementRows(
        {
          deposits: (tables.deposits ?? []) as DepositRecord[],
          withdrawals: (tables.withdrawals ?? []) as WithdrawalRecord[],
          transfers: (tables.transfers ?? []) as TransferRecord[],
          profits: (tables.profitLog ?? []) as StatementSources['profits'],
          ledgerLines: (tables.ledgerLines ?? []) as LedgerLinesView[],
        },
        range,
      ),
    [tables, range],
  );
  const invalid = range.from !== '' && range.to !== '' && range.from > range.to;

  function download() {
    const csv = statementCsv(rows, {
      headers: [
        t('statement.col.time'),
        t('statement.col.type'),
        t('statement.col.amount'),
        t('statement.col.fee'),
        t('statement.col.currency'),
        t('statement.col.status'),
        t('statement.col.network'),
        t('statement.col.reference'),
        t('statementLines.col.account'),
      ],
      kind: (kind: StatementKind) =>
        kind in KIND_KEYS ? t(`statementLines.kind.${kind}`) : t(`statement.kind.${kind}`),
      account: (account) => t(`overview.account.${account}`, { defaultValue: account }),
      status: (status) => statusLabel(status, t),
    });
    // A byte-order mark so spreadsheet programs read the file as UTF-8 (names and labels in any script).
    const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `strata-statement-${range.from || 'start'}-${range.to || 'now'}${demo ? '-demo' : ''}.csv`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <div className="page statement">
      <StaleNote at={pulledAt} />
      <section className="card" aria-labelledby="statement-title">
        <h2 id="statement-title" className="section-title">
          {t('statement.title')}
        </h2>
        <p className="record-meta">{t('statementLines.intro')}</p>
        {demo && <p className="demo-note">{t('statement.demo')}</p>}
        <form className="statement-form" onSubmit={(e) => e.preventDefault()}>
          <Field
            label={t('statement.from')}
            type="date"
            name="from"
            value={range.from}
            onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
          />
          <Field
            label={t('statement.to')}
            type="date"
            name="to"
            value={range.to}
            onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
            error={invalid ? t('statement.badRange') : undefined}
          />
          <p className="record-meta" role="status">
            {!everLoaded ? t('statement.loading') : t('statement.count', { count: rows.length })}
          </p>
          <button
            type="button"
            className="button primary block"
            disabled={invalid || rows.length === 0}
            onClick={download}
          >
            {t('statement.download')}
          </button>
        </form>
      </section>
    </div>
  );
}
