/** A status filter's choices, named as the records' own badges name them (src/lib/status.ts). */
import { useTranslation } from 'react-i18next';
import { statusLabel } from '../../lib/status';

export function useStatusOptions(statuses: readonly string[]): { value: string; label: string }[] {
  const { t } = useTranslation();
  return statuses.map((s) => ({ value: s, label: statusLabel(s, t) }));
}
