/**
 * The route table of SPEC.md §2, rendered by React Router's declarative API (`useRoutes` inside a
 * `<BrowserRouter>`): the data router (loaders, actions, fetchers) is not used, so its code stays out of
 * /home's critical path (docs/PWA.md). Feature screens are lazy chunks (React.lazy, under the shell's
 * Suspense), so /home's initial JS holds only the shell; main.tsx awaits the opened route's screen before the
 * first render, so the first React frame already shows it.
 */
import { lazy, type ComponentType } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { AppShell } from './AppShell';
import { ComingSoon } from './ComingSoon';
import { NotFound } from './NotFound';
import { REDIRECTS, SCREENS } from './paths';
import { RedirectTo } from './RedirectTo';
import { loadAllParts } from '../i18n';

/**
 * A screen's module: its component and, for a screen that shows the member's figures, `warm` (reads them from
 * the device before its first render at start-up, so the first frame has them).
 */
type ScreenLoader = () => Promise<{ Component: ComponentType; warm?: () => Promise<void> }>;

/** How long start-up waits for a screen's device read before rendering without it (a slow IndexedDB). */
const WARM_WAIT_MS = 250;

const LAZY: Record<string, ScreenLoader> = {
  '/home': async () => {
    const screen = await import('../features/home/HomePage');
    return { Component: screen.HomePage, warm: screen.warmHome };
  },
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
  // Member security (docs/SPEC.md §10): two-factor authentication, passkeys, devices, anti-phishing code,
  // proof of reserves.
  '/user/twofactor': async () => ({
    Component: (await import('../features/security/TwoFactorPage')).TwoFactorPage,
  }),
  '/user/passkeys': async () => ({
    Component: (await import('../features/security/PasskeysPage')).PasskeysPage,
  }),
  '/user/devices': async () => ({
    Component: (await import('../features/security/DevicesPage')).DevicesPage,
  }),
  '/user/antiphishing': async () => ({
    Component: (await import('../features/security/AntiPhishingPage')).AntiPhishingPage,
  }),
  '/user/reserves': async () => ({
    Component: (await import('../features/security/ReservesPage')).ReservesPage,
  }),
  '/user/addressbook': async () => ({
    Component: (await import('../features/wallet/AddressBookPage')).AddressBookPage,
  }),
  '/user/notifications': async () => ({
    Component: (await import('../features/notifications/NotificationsPage')).NotificationsPage,
  }),
  '/user/statement': async () => ({
    Component: (await import('../features/records/StatementPage')).StatementPage,
  }),
  // Markets screens (issue 5): quotes, K-line, trade, finance products and mining.
  '/market': async () => {
    const screen = await import('../features/market/MarketPage');
    return { Component: screen.MarketPage, warm: screen.warmMarket };
  },
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
  '/user': async () => {
    const screen = await import('../features/assets/AssetsPage');
    return { Component: screen.AssetsPage, warm: screen.warmAssets };
  },
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
  '/order/transferRecord': async () => {
    const screen = await import('../features/records/TransferRecordsPage');
    return { Component: screen.TransferRecordsPage, warm: screen.warmTransferRecords };
  },
  '/order/vipRecord': async () => ({
    Component: (await import('../features/records/VipRecordsPage')).VipRecordsPage,
  }),
  '/pay/record': async () => ({
    Component: (await import('../features/records/AuditRecordsPage')).AuditRecordsPage,
  }),
};

/** Screens whose module has loaded: they render at once, without suspending. */
const loadedScreens = new Map<string, ComponentType>();

/**
 * The loader of the screen at `path`, remembering the module once it has loaded. A screen waits for every part
 * of the language too (src/i18n: the app may have started with only the opened route's parts), except the
 * screen the app starts on (`start`), whose parts initI18n has loaded.
 */
function loaderOf(path: string, start = false): ScreenLoader | undefined {
  const load = LAZY[path];
  return (
    load &&
    (async () => {
      const [module] = await Promise.all([load(), start ? undefined : loadAllParts()]);
      loadedScreens.set(path, module.Component);
      return module;
    })
  );
}

/**
 * Starts loading the screen of the page being opened at start-up, in parallel with the locale instead of
 * after it; answers when it has loaded (or failed: the screen's error boundary then
 * says so) and, for a screen with `warm`, once the member's figures are read from the device (at most
 * WARM_WAIT_MS more), so the first render finds the module ready and shows the figures, not a loading state.
 */
export async function preloadScreen(pathname: string): Promise<void> {
  const load = loaderOf(REDIRECTS[pathname] ?? pathname, true);
  if (!load) return;
  try {
    const { warm } = await load();
    if (!warm) return;
    // The device read is best-effort: a failure or a slow disk leaves the screen to read as it renders.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      warm().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, WARM_WAIT_MS))),
    ]);
    clearTimeout(timer);
  } catch {
    // The screen's error boundary says so when it renders.
  }
}

/**
 * The screen at `path`: its component at once when its module has loaded (the opened route, preloaded before
 * the first render, so the first frame shows it), else React.lazy under the shell's Suspense (a navigation
 * keeps the previous screen while it loads: React Router's updates are transitions).
 */
function lazyScreen(path: string, load: ScreenLoader): ComponentType {
  const Lazy = lazy(async () => ({ default: (await load()).Component }));
  return function Screen() {
    const Loaded = loadedScreens.get(path);
    return Loaded ? <Loaded /> : <Lazy />;
  };
}

function screenRoute(path: string): RouteObject {
  const load = loaderOf(path);
  return { path, Component: load ? lazyScreen(path, load) : ComingSoon };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: AppShell,
    children: [
      // '/' is the shell's own path, so its redirect is the index route.
      ...Object.entries(REDIRECTS).map(([from, to]): RouteObject => {
        const element = <Navigate to={to} replace />;
        return from === '/' ? { index: true, element } : { path: from, element };
      }),
      { path: 'redirect/*', Component: RedirectTo },
      ...SCREENS.map((s) => screenRoute(s.path)),
      { path: '*', Component: NotFound },
    ],
  },
];

/** The app's routes, inside a `<BrowserRouter>` (or a `<MemoryRouter>` in tests). */
export function AppRoutes() {
  return useRoutes(routes);
}
