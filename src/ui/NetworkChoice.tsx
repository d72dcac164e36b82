/** TRC-20 or ERC-20: a labelled group of two toggle buttons (aria-pressed), as the theme choice is built. */
import { useTranslation } from 'react-i18next';
import type { WireNetwork } from '../../engine/index';

export const NETWORKS: readonly WireNetwork[] = ['TRC20', 'ERC20'];

export function networkLabel(network: string): string {
  return network.replace(/^(TRC|ERC)(\d+)$/, '$1-$2');
}

export function NetworkChoice({
  value,
  onChange,
  disabled,
}: {
  value: WireNetwork;
  onChange: (network: WireNetwork) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <span className="field-label" id="network-label">
        {t('wallet.network')}
      </span>
      <div className="choice-tiles" role="group" aria-labelledby="network-label">
        {NETWORKS.map((n) => (
          <button
            key={n}
            type="button"
            className="choice-tile"
            aria-pressed={value === n}
            disabled={disabled}
            onClick={() => onChange(n)}
          >
            USDT {networkLabel(n)}
          </button>
        ))}
      </div>
    </div>
  );
}
