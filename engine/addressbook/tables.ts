/**
 * The withdrawal address book (issue 27 item 3): the addresses a member saved, per network, each with a label
 * and the time it becomes usable (a new address waits `addressHoldMs`, 24 hours by default, before a
 * whitelisted withdrawal may go to it), and the member's whitelist setting (withdrawals only to saved
 * addresses past their hold). Times are ms (engine/README.md).
 */
import type { Network } from '../chain/addresses';
import { defineTable } from '../store/port';

export interface SavedAddressRow {
  id: string;
  memberId: string;
  network: Network;
  /** Canonical form (EIP-55 for Ethereum), as the chain domain validates it. */
  address: string;
  label: string;
  createdAt: number;
  /** Before this time a whitelisted withdrawal to it answers 6127. */
  usableAt: number;
}

export const savedAddresses = defineTable<SavedAddressRow>('savedAddresses', {
  member: (r) => r.memberId,
  /** One entry per member, network and address. */
  entry: (r) => `${r.memberId}:${r.network}:${r.address}`,
});

export interface AddressBookSettingsRow {
  /** The member's id. */
  id: string;
  memberId: string;
  /** Withdrawals only to saved addresses past their hold. */
  whitelist: boolean;
  updatedAt: number;
}

export const addressBookSettings = defineTable<AddressBookSettingsRow>('addressBookSettings', {
  member: (r) => r.memberId,
});
