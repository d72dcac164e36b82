/** The filter bar above a records list: from and to dates, a status (or a direction), and "clear". */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReplica, type Replicated } from '../../sync/live';
import { Field, SelectField } from '../../ui/Field';
import { filterRecords, isFiltered, NO_FILTER, type RecordFilter } from './filters';
import './records.css';

export interface RecordFiltersProps {
  value: RecordFilter;
  onChange: (filter: RecordFilter) => void;
  /** The status choices after "All" (value, label); none: no status filter. */
  statuses?: { value: string; label: string }[];
  /** The status select's label ("Status", "Direction"). */
  statusLabel?: string;
  shown: number;
  total: number;
}

export function RecordFilters({ value, onChange, statuses, statusLabel, shown, total }: RecordFiltersProps) {
  const { t } = useTranslation();
  return (
    <form className="record-filters" aria-label={t('statement.filters')} onSubmit={(e) => e.preventDefault()}>
      <Field
        label={t('statement.from')}
        type="date"
        name="from"
        value={value.from}
        max={value.to || undefined}
        onChange={(e) => onChange({ ...value, from: e.target.value })}
      />
      <Field
        label={t('statement.to')}
        type="date"
        name="to"
        value={value.to}
        min={value.from || undefined}
        onChange={(e) => onChange({ ...value, to: e.target.value })}
      />
      {statuses && (
        <SelectField
          label={statusLabel ?? t('records.status')}
          name="status"
          value={value.status}
          onChange={(status) => onChange({ ...value, status })}
          options={[{ value: 'all', label: t('statement.all') }, ...statuses]}
        />
      )}
      <p className="record-meta filter-count" role="status">
        {isFiltered(value) ? t('statement.shown', { shown, total }) : ''}
      </p>
      {isFiltered(value) && (
        <button type="button" className="button small" onClick={() => onChange(NO_FILTER)}>
          {t('statement.clear')}
        </button>
      )}
    </form>
  );
}

/**
 * A replica table's rows filtered on the device: `data` for ReplicaList, `bar` for RecordFilters (the filter,
 * its setter, and the rows shown of the total). `statusOf` is what the status choice compares.
 */
export function useFilteredReplica<T extends { createdAt: number }>(
  table: string,
  statusOf: (record: T) => string,
): { data: Replicated<T>; bar: Pick<RecordFiltersProps, 'value' | 'onChange' | 'shown' | 'total'> } {
  const all = useReplica<T>(table);
  const [filter, setFilter] = useState(NO_FILTER);
  const records = filterRecords(all.records, filter, statusOf);
  return {
    data: { ...all, records },
    bar: { value: filter, onChange: setFilter, shown: records.length, total: all.records.length },
  };
}
