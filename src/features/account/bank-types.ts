/** Wire shapes of /api/bank/list and /api/bank/add (API.md; engine/bank/handlers.ts). */
export interface BankCard {
  id: string;
  bankName: string;
  /** Masked: only the last four digits are kept. */
  cardNumber: string;
  holder: string;
  time: number;
}

export interface BankAddBody {
  bankName: string;
  cardNumber: string;
  holder: string;
}
