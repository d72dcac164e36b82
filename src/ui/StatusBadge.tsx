/** A record's status (SPEC.md §4) as a translated label, coloured by how it ended. */
import { useTranslation } from 'react-i18next';
import { statusKey, statusLabel } from '../lib/status';
import './ui.css';

const GOOD = new Set(['status.success', 'status.passed', 'status.finished', 'status.refunded']);
const BAD = new Set(['status.rejected', 'status.failed', 'status.cancelled', 'status.expired']);

export function toneOf(status: string): 'good' | 'bad' | 'wait' {
  const key = statusKey(status) ?? '';
  return GOOD.has(key) ? 'good' : BAD.has(key) ? 'bad' : 'wait';
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return <span className={`badge badge-${toneOf(status)}`}>{statusLabel(status, t)}</span>;
}
