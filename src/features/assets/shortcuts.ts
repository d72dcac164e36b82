/** Every /user/* function and record list, as the Assets tab links them (SPEC.md §2). */
import type { IconName } from '../../ui/icons';
import { PATHS, type AppHref } from '../../lib/paths';

export const MAIN_ACTIONS: { to: AppHref; labelKey: string; icon: IconName }[] = [
  { to: PATHS.userRecharge, labelKey: 'assets.deposit', icon: 'deposit' },
  { to: PATHS.userWithdraw, labelKey: 'assets.withdraw', icon: 'withdraw' },
  { to: PATHS.userTransfer, labelKey: 'assets.transfer', icon: 'transfer' },
  { to: PATHS.userVip, labelKey: 'assets.vip', icon: 'vip' },
];

export const MENU_SECTIONS: { titleKey: string; items: { to: AppHref; labelKey: string }[] }[] = [
  {
    titleKey: 'assets.records',
    items: [
      { to: PATHS.orderRechargeRecord, labelKey: 'routes.orderRechargeRecord' },
      // One entry per kind: /order/withdraw (the same list with a "New withdrawal" button) stays a route.
      { to: PATHS.orderWithdrawRecord, labelKey: 'routes.orderWithdrawRecord' },
      { to: PATHS.orderTransferRecord, labelKey: 'routes.orderTransferRecord' },
      { to: PATHS.orderVipRecord, labelKey: 'routes.orderVipRecord' },
      { to: PATHS.payRecord, labelKey: 'routes.payRecord' },
      { to: PATHS.userFinanceLog, labelKey: 'routes.userFinanceLog' },
      { to: PATHS.userStatement, labelKey: 'routes.userStatement' },
      { to: PATHS.userNotifications, labelKey: 'routes.userNotifications' },
    ],
  },
  {
    titleKey: 'assets.services',
    items: [
      { to: PATHS.userMove, labelKey: 'routes.userMove' },
      { to: PATHS.userBuycoin, labelKey: 'routes.userBuycoin' },
      { to: PATHS.userInvite, labelKey: 'routes.userInvite' },
      { to: PATHS.userBank, labelKey: 'routes.userBank' },
      { to: PATHS.userHelp, labelKey: 'routes.userHelp' },
    ],
  },
  {
    titleKey: 'assets.security',
    items: [
      { to: PATHS.userAccount, labelKey: 'routes.userAccount' },
      { to: PATHS.userCert, labelKey: 'routes.userCert' },
      { to: PATHS.userChangePsw, labelKey: 'routes.userChangePsw' },
      { to: PATHS.userTwofactor, labelKey: 'routes.userTwofactor' },
      { to: PATHS.userPasskeys, labelKey: 'routes.userPasskeys' },
      { to: PATHS.userDevices, labelKey: 'routes.userDevices' },
      { to: PATHS.userAntiphishing, labelKey: 'routes.userAntiphishing' },
      { to: PATHS.userReserves, labelKey: 'routes.userReserves' },
      { to: PATHS.userAddressbook, labelKey: 'routes.userAddressbook' },
      { to: PATHS.userforget, labelKey: 'routes.userforget' },
    ],
  },
];
