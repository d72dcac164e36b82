/**
 * Wire types of the address book and the money-out checks (issue 27 items 3 and 4), merged into ContractMap
 * (engine/contract.ts). Times are Unix seconds.
 */
import type { Network } from '../chain/addresses';
import type { SecondFactorFields } from '../twofactor/wire';
import type { AddressKind } from './rules';
import type { SavedAddressView } from './view';

export type { AddressKind } from './rules';
export type { SavedAddressView } from './view';

export interface AddressBook {
  /** Withdrawals only to saved addresses past their hold. */
  whitelist: boolean;
  /** How long a new address waits before a whitelisted withdrawal may use it. */
  holdSeconds: number;
  /** The most addresses a member can save. */
  limit: number;
  /** Newest first. */
  list: SavedAddressView[];
}

export interface DestinationCheck {
  /** The address in canonical form. */
  address: string;
  kind: AddressKind;
  saved: SavedAddressView | null;
  whitelist: boolean;
  /** The code a withdrawal to it would be refused with now (6124, 6126, 6127), or null. */
  refusal: 6124 | 6126 | 6127 | null;
}

/** What a transfer's sender may see of the recipient before confirming: never a full name. */
export interface RecipientPreview {
  /** The recipient's username, masked ("al***23"). */
  name: string;
  /** The recipient's level in force ("vip2"). */
  vip: string;
}

export interface AddressBookContract {
  '/api/addressbook/list': { body: undefined; data: AddressBook };
  '/api/addressbook/add': {
    body: SecondFactorFields & { network: Network; address: string; label: string };
    data: SavedAddressView;
  };
  '/api/addressbook/remove': { body: SecondFactorFields & { id: string }; data: null };
  '/api/addressbook/whitelist': { body: SecondFactorFields & { on: boolean }; data: { whitelist: boolean } };
  '/api/addressbook/check': { body: { network: Network; address: string }; data: DestinationCheck };
  '/api/transfer/recipient': { body: { account: string }; data: RecipientPreview };
}
