/** VIP level names as the app shows them: 'vip0' -> 'VIP0' (the stored value stays lower case, SPEC.md §3). */
import { levelOf } from '../machines/vip-effects';

export function levelName(vip: string | number): string {
  return `VIP${levelOf(vip)}`;
}
