/** The console's screens in navigation order, each with the grants (any of) that may open it. */
import type { Grant } from './session';

export interface ScreenEntry {
  path: string;
  key:
    | 'withdrawals'
    | 'deposits'
    | 'certs'
    | 'members'
    | 'audit'
    | 'operators'
    | 'solvency'
    | 'market'
    | 'settings';
  grants: readonly Grant[];
}

export const SCREENS: readonly ScreenEntry[] = [
  { path: 'withdrawals', key: 'withdrawals', grants: ['review'] },
  { path: 'deposits', key: 'deposits', grants: ['review', 'finance'] },
  { path: 'certs', key: 'certs', grants: ['review'] },
  { path: 'members', key: 'members', grants: ['read'] },
  { path: 'solvency', key: 'solvency', grants: ['read'] },
  { path: 'market', key: 'market', grants: ['read'] },
  { path: 'audit', key: 'audit', grants: ['admin'] },
  { path: 'operators', key: 'operators', grants: ['admin'] },
  { path: 'settings', key: 'settings', grants: ['admin'] },
];
