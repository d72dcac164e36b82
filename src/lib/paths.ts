/**
 * Every path of the member app (SPEC.md §2), by name: screens and shared code link with `PATHS.userVip`, never
 * a string literal (lint rule in eslint.config.js), so a renamed or removed route fails the typecheck where it
 * is used. Each name is also the screen's title key (`routes.<name>` in locales/<lang>/translation.json).
 */

export const PATHS = {
  home: '/home',
  market: '/market',
  contract: '/contract',
  financial: '/financial',
  user: '/user',
  homeMore: '/home/more',
  login: '/login',
  register: '/register',
  forget: '/forget',
  userforget: '/userforget',
  finance: '/finance/finance',
  financeLivecoin: '/finance/livecoin',
  financeKline: '/finance/kline',
  financeMachine: '/finance/machine',
  financeOrder: '/finance/order',
  financeProductDetail: '/finance/productDetail',
  financeConfirm: '/finance/confirm',
  payWithdraw: '/pay/withdraw',
  payRecord: '/pay/record',
  userCert: '/user/cert',
  userChangePsw: '/user/changePsw',
  userInvite: '/user/invite',
  userBuycoin: '/user/buycoin',
  userAccount: '/user/account',
  userRecharge: '/user/recharge',
  userWithdraw: '/user/withdraw',
  userTransfer: '/user/transfer',
  userMove: '/user/move',
  userVip: '/user/vip',
  userHelp: '/user/help',
  userBank: '/user/bank',
  userBankAdd: '/user/bankAdd',
  userFinanceLog: '/user/finance/log',
  // Member security (docs/SPEC.md §10).
  userTwofactor: '/user/twofactor',
  userPasskeys: '/user/passkeys',
  userDevices: '/user/devices',
  userAntiphishing: '/user/antiphishing',
  userReserves: '/user/reserves',
  // The withdrawal address book (docs/SPEC.md §10).
  userAddressbook: '/user/addressbook',
  // The notification centre and price alerts, the account statement (docs/SPEC.md §12).
  userNotifications: '/user/notifications',
  userStatement: '/user/statement',
  orderWithdraw: '/order/withdraw',
  orderWithdrawRecord: '/order/withdrawRecord',
  orderRechargeRecord: '/order/rechargeRecord',
  orderTransferRecord: '/order/transferRecord',
  orderVipRecord: '/order/vipRecord',
} as const;

export type ScreenName = keyof typeof PATHS;

/** A path of the app's route table. */
export type AppPath = (typeof PATHS)[ScreenName];

/** A link target within the app: a path, with a search string when the screen reads one. */
export type AppHref = AppPath | `${AppPath}?${string}`;

/** `path` with the search parameters `params` (`/contract?symbol=BTC%2FUSDT`); `path` alone without any. */
export function pathWith(path: AppPath, params: Readonly<Record<string, string>>): AppHref {
  const query = new URLSearchParams(params).toString();
  return query ? `${path}?${query}` : path;
}
