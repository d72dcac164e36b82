/** A transaction hash or address in a record: shown whole in its title, cut with an ellipsis, with Copy. */
import { CopyButton } from '../../ui/CopyButton';

export function HashLine({ label, value }: { label: string; value: string }) {
  return (
    <div className="record-meta record-hash" dir="ltr" translate="no">
      <span title={value}>
        {label}: {value}
      </span>
      <CopyButton text={value} label={undefined} />
    </div>
  );
}
