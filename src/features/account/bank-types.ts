/** Wire shapes of /api/bank/list and /api/bank/add, straight from the contract (engine/contract.ts). */
import type { BankCardView, BodyOf } from '../../../engine/index';

export type BankCard = BankCardView;
export type BankAddBody = BodyOf<'/api/bank/add'>;
