/**
 * The member's own mutating calls that a device may queue and replay (engine/sync/mutations.ts explains the
 * choice). No imports: the app reads this list from engine/index.ts without loading the engine.
 */
export const SYNCABLE_PATHS = [
  '/api/transfer/submit',
  '/api/withdraw/submit',
  '/api/Viplist/Buyvip',
  '/api/Viplist/refund',
  '/api/product/buy',
  '/api/mining/buy',
  '/api/account/transfer',
  '/api/order/place',
  '/api/order/cancel',
  '/api/position/margin',
  '/api/position/tpsl',
  '/api/position/settings',
  '/api/bank/add',
  '/api/buycoin/buy',
  '/api/recharge/submit',
  '/api/user/cert',
  '/api/user/editPsw',
  '/api/user/edituserPsw',
  '/api/alert/create',
  '/api/alert/cancel',
  '/api/market/favourite',
  '/api/notice/seen',
] as const;
