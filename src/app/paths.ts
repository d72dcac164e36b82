import { parse } from 'regexparam';

/**
 * Every screen of SPEC.md §2 with its title key. Pure data: the router, the guard tests and the /home/more
 * list all read it, so a route cannot exist in one place and be missing in another.
 */

export interface ScreenInfo {
  path: string;
  /** Key under routes.* in locales/<lang>/translation.json. */
  titleKey: string;
  /** One of the five bottom tabs: no back button in the top bar. */
  tab?: boolean;
}

export const TABS = [
  { path: '/home', labelKey: 'nav.home', icon: 'home' },
  { path: '/market', labelKey: 'nav.market', icon: 'market' },
  { path: '/contract', labelKey: 'nav.contract', icon: 'trade' },
  { path: '/financial', labelKey: 'nav.financial', icon: 'finance' },
  { path: '/user', labelKey: 'nav.user', icon: 'assets' },
] as const;

export type TabIcon = (typeof TABS)[number]['icon'];

export const SCREENS: readonly ScreenInfo[] = [
  { path: '/home', titleKey: 'routes.home', tab: true },
  { path: '/market', titleKey: 'routes.market', tab: true },
  { path: '/contract', titleKey: 'routes.contract', tab: true },
  { path: '/financial', titleKey: 'routes.financial', tab: true },
  { path: '/user', titleKey: 'routes.user', tab: true },
  { path: '/home/more', titleKey: 'routes.homeMore' },
  { path: '/login', titleKey: 'routes.login' },
  { path: '/register', titleKey: 'routes.register' },
  { path: '/forget', titleKey: 'routes.forget' },
  { path: '/userforget', titleKey: 'routes.userforget' },
  { path: '/finance/finance', titleKey: 'routes.finance' },
  { path: '/finance/livecoin', titleKey: 'routes.financeLivecoin' },
  { path: '/finance/kline', titleKey: 'routes.financeKline' },
  { path: '/finance/machine', titleKey: 'routes.financeMachine' },
  { path: '/finance/order', titleKey: 'routes.financeOrder' },
  { path: '/finance/productDetail', titleKey: 'routes.financeProductDetail' },
  { path: '/finance/confirm', titleKey: 'routes.financeConfirm' },
  { path: '/pay/withdraw', titleKey: 'routes.payWithdraw' },
  { path: '/pay/record', titleKey: 'routes.payRecord' },
  { path: '/user/cert', titleKey: 'routes.userCert' },
  { path: '/user/changePsw', titleKey: 'routes.userChangePsw' },
  { path: '/user/invite', titleKey: 'routes.userInvite' },
  { path: '/user/buycoin', titleKey: 'routes.userBuycoin' },
  { path: '/user/account', titleKey: 'routes.userAccount' },
  { path: '/user/recharge', titleKey: 'routes.userRecharge' },
  { path: '/user/withdraw', titleKey: 'routes.userWithdraw' },
  { path: '/user/transfer', titleKey: 'routes.userTransfer' },
  { path: '/user/move', titleKey: 'routes.userMove' },
  { path: '/user/vip', titleKey: 'routes.userVip' },
  { path: '/user/help', titleKey: 'routes.userHelp' },
  { path: '/user/bank', titleKey: 'routes.userBank' },
  { path: '/user/bankAdd', titleKey: 'routes.userBankAdd' },
  { path: '/user/finance/log', titleKey: 'routes.userFinanceLog' },
  // Member security (docs/SPEC.md §10).
  { path: '/user/twofactor', titleKey: 'routes.userTwofactor' },
  { path: '/user/passkeys', titleKey: 'routes.userPasskeys' },
  { path: '/user/devices', titleKey: 'routes.userDevices' },
  { path: '/user/antiphishing', titleKey: 'routes.userAntiphishing' },
  { path: '/order/withdraw', titleKey: 'routes.orderWithdraw' },
  { path: '/order/withdrawRecord', titleKey: 'routes.orderWithdrawRecord' },
  { path: '/order/rechargeRecord', titleKey: 'routes.orderRechargeRecord' },
  { path: '/order/transferRecord', titleKey: 'routes.orderTransferRecord' },
  { path: '/order/vipRecord', titleKey: 'routes.orderVipRecord' },
];

/** Paths that only redirect: / -> /home, /finance -> /finance/finance, /redirect/{path} -> /{path}. */
export const REDIRECTS: Readonly<Record<string, string>> = {
  '/': '/home',
  '/finance': '/finance/finance',
};

export function isTabPath(pathname: string): boolean {
  return TABS.some((t) => t.path === pathname);
}

/**
 * The title key of the page at `pathname` (the top bar and document.title), matched as the router matches:
 * with wouter's own pattern parser (regexparam), case-insensitive, a trailing slash allowed.
 */
export function titleKeyOf(pathname: string): string {
  const matches = (path: string) => parse(path).pattern.test(pathname);
  const screen = SCREENS.find((s) => matches(s.path));
  if (screen) return screen.titleKey;
  if (Object.keys(REDIRECTS).some(matches) || matches('/redirect/*?')) return 'routes.redirect';
  return 'routes.notFound';
}
