/**
 * The route table of SPEC.md §2 for a data router. Feature screens are lazy chunks, so /home's initial JS
 * holds only the shell; screens owned by later issues show <ComingSoon> until they land.
 */
import { Navigate, type RouteObject } from 'react-router-dom';
import { AppShell, type RouteHandle } from './AppShell';
import { ComingSoon } from './ComingSoon';
import { NotFound } from './NotFound';
import { REDIRECTS, SCREENS } from './paths';
import { RedirectTo } from './RedirectTo';

function Splash() {
  return <div className="splash">Strata</div>;
}

const LAZY: Record<string, RouteObject['lazy']> = {
  '/home': async () => ({ Component: (await import('../features/home/HomePage')).HomePage }),
  '/home/more': async () => ({ Component: (await import('../features/home/MorePage')).MorePage }),
  '/login': async () => ({ Component: (await import('../features/auth/LoginPage')).LoginPage }),
  '/register': async () => ({ Component: (await import('../features/auth/RegisterPage')).RegisterPage }),
  '/forget': async () => ({ Component: (await import('../features/auth/ForgetPage')).ForgetPage }),
  '/userforget': async () => ({
    Component: (await import('../features/auth/UserForgetPage')).UserForgetPage,
  }),
  // Account screens (issue 5): account management, secrets, identity, cards, invite, quick buy, help, log.
  '/user/account': async () => ({ Component: (await import('../features/account/AccountPage')).AccountPage }),
  '/user/changePsw': async () => ({
    Component: (await import('../features/account/ChangePswPage')).ChangePswPage,
  }),
  '/user/cert': async () => ({ Component: (await import('../features/account/CertPage')).CertPage }),
  '/user/bank': async () => ({ Component: (await import('../features/account/BankPage')).BankPage }),
  '/user/bankAdd': async () => ({ Component: (await import('../features/account/BankAddPage')).BankAddPage }),
  '/user/invite': async () => ({ Component: (await import('../features/account/InvitePage')).InvitePage }),
  '/user/buycoin': async () => ({ Component: (await import('../features/account/BuycoinPage')).BuycoinPage }),
  '/user/help': async () => ({ Component: (await import('../features/account/HelpPage')).HelpPage }),
  '/user/finance/log': async () => ({
    Component: (await import('../features/account/FinanceLogPage')).FinanceLogPage,
  }),
  // Markets screens (issue 5): quotes, K-line, trade, finance products and mining.
  '/market': async () => ({ Component: (await import('../features/market/MarketPage')).MarketPage }),
  '/contract': async () => ({ Component: (await import('../features/trade/TradePage')).TradePage }),
  '/finance/kline': async () => ({ Component: (await import('../features/kline/KlinePage')).KlinePage }),
  '/financial': async () => ({ Component: (await import('../features/finance/FinancePage')).FinancePage }),
  '/finance/finance': async () => ({
    Component: (await import('../features/finance/FinancePage')).FinancePage,
  }),
  '/finance/productDetail': async () => ({
    Component: (await import('../features/finance/ProductDetailPage')).ProductDetailPage,
  }),
  '/finance/confirm': async () => ({
    Component: (await import('../features/finance/ConfirmPage')).ConfirmPage,
  }),
  '/finance/order': async () => ({ Component: (await import('../features/finance/OrdersPage')).OrdersPage }),
  '/finance/machine': async () => ({
    Component: (await import('../features/finance/MachinePage')).MachinePage,
  }),
  '/finance/livecoin': async () => ({
    Component: (await import('../features/finance/LivecoinPage')).LivecoinPage,
  }),
  // Wallet screens (issue 5): assets, deposit, withdraw, transfer, VIP and the record lists.
  '/user': async () => ({ Component: (await import('../features/assets/AssetsPage')).AssetsPage }),
  '/user/recharge': async () => ({
    Component: (await import('../features/wallet/RechargePage')).RechargePage,
  }),
  '/user/withdraw': async () => ({
    Component: (await import('../features/wallet/WithdrawPage')).WithdrawPage,
  }),
  '/pay/withdraw': async () => ({
    Component: (await import('../features/wallet/WithdrawPage')).WithdrawPage,
  }),
  '/user/transfer': async () => ({
    Component: (await import('../features/wallet/TransferPage')).TransferPage,
  }),
  '/user/move': async () => ({ Component: (await import('../features/assets/MovePage')).MovePage }),
  '/user/vip': async () => ({ Component: (await import('../features/wallet/VipPage')).VipPage }),
  '/order/rechargeRecord': async () => ({
    Component: (await import('../features/records/DepositRecordsPage')).DepositRecordsPage,
  }),
  '/order/withdrawRecord': async () => ({
    Component: (await import('../features/records/WithdrawRecordsPage')).WithdrawRecordsPage,
  }),
  '/order/withdraw': async () => ({
    Component: (await import('../features/records/WithdrawRecordsPage')).WithdrawOrdersPage,
  }),
  '/order/transferRecord': async () => ({
    Component: (await import('../features/records/TransferRecordsPage')).TransferRecordsPage,
  }),
  '/order/vipRecord': async () => ({
    Component: (await import('../features/records/VipRecordsPage')).VipRecordsPage,
  }),
  '/pay/record': async () => ({
    Component: (await import('../features/records/AuditRecordsPage')).AuditRecordsPage,
  }),
};

/**
 * Starts loading the screen of the page being opened at start-up, in parallel with the locale and the 300 ms
 * mount delay instead of after them (the route's lazy() then finds the module already loaded).
 */
export function preloadScreen(pathname: string): void {
  const lazy = LAZY[REDIRECTS[pathname] ?? pathname];
  if (typeof lazy === 'function') void (lazy as () => Promise<unknown>)().catch(() => undefined);
}

function screenRoute(path: string, titleKey: string): RouteObject {
  const handle: RouteHandle = { titleKey };
  const lazy = LAZY[path];
  return lazy ? { path, handle, lazy } : { path, handle, Component: ComingSoon };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: AppShell,
    // The first lazy screen is still loading: keep index.html's splash look instead of a blank page.
    HydrateFallback: Splash,
    children: [
      // '/' is the shell's own path, so its redirect is the index route.
      ...Object.entries(REDIRECTS).map(([from, to]): RouteObject => {
        const handle: RouteHandle = { titleKey: 'routes.redirect' };
        const element = <Navigate to={to} replace />;
        return from === '/' ? { index: true, handle, element } : { path: from, handle, element };
      }),
      { path: 'redirect/*', handle: { titleKey: 'routes.redirect' }, Component: RedirectTo },
      ...SCREENS.map((s) => screenRoute(s.path, s.titleKey)),
      { path: '*', handle: { titleKey: 'routes.notFound' }, Component: NotFound },
    ],
  },
];
