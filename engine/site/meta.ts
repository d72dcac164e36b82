/** Small named values shared between domains (e.g. platform addresses, the deposit key's xpub). */
import { defineTable } from '../store/port';

export interface MetaRow {
  id: string;
  value: string;
}

export const meta = defineTable<MetaRow>('meta');
