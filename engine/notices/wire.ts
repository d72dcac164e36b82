/**
 * Wire types of the notices' read state (issue 26 item 4; API.md "Price alerts", notices read), merged into
 * ContractMap (engine/contract.ts). Times are Unix seconds.
 */
import type { NoticeReadView } from './view';

export type { NoticeReadView } from './view';

export interface NoticesContract {
  /**
   * Records the newest notice id the member has seen (one of their own notices). Monotonic: an id older
   * than the one recorded changes nothing, so a replay or a slower device never marks notices unread again.
   */
  '/api/notice/seen': { body: { id: string }; data: NoticeReadView };
}
