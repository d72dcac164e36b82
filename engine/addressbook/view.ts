/** What a member sees of a saved address (the list call and the synced `savedAddresses` rows). */
import type { Network } from '../chain/addresses';
import { toSeconds } from '../context';
import type { UnixSeconds } from '../contract';
import type { SavedAddressRow } from './tables';

export interface SavedAddressView {
  id: string;
  network: Network;
  address: string;
  label: string;
  createdAt: UnixSeconds;
  /** From then on a whitelisted withdrawal may go to it (the hold's end). */
  usableAt: UnixSeconds;
}

export function savedAddressView(row: SavedAddressRow): SavedAddressView {
  return {
    id: row.id,
    network: row.network,
    address: row.address,
    label: row.label,
    createdAt: toSeconds(row.createdAt),
    usableAt: toSeconds(row.usableAt),
  };
}
