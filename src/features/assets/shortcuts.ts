/** Every /user/* function and record list, as the Assets tab links them (SPEC.md §2). */
import type { IconName } from '../../ui/icons';

export const MAIN_ACTIONS: { to: string; labelKey: string; icon: IconName }[] = [
  { to: '/user/recharge', labelKey: 'assets.deposit', icon: 'deposit' },
  { to: '/user/withdraw', labelKey: 'assets.withdraw', icon: 'withdraw' },
  { to: '/user/transfer', labelKey: 'assets.transfer', icon: 'transfer' },
  { to: '/user/vip', labelKey: 'assets.vip', icon: 'vip' },
];

export const MENU_SECTIONS: { titleKey: string; items: { to: string; labelKey: string }[] }[] = [
  {
    titleKey: 'assets.records',
    items: [
      { to: '/order/rechargeRecord', labelKey: 'routes.orderRechargeRecord' },
      { to: '/order/withdrawRecord', labelKey: 'routes.orderWithdrawRecord' },
      { to: '/order/withdraw', labelKey: 'routes.orderWithdraw' },
      { to: '/order/transferRecord', labelKey: 'routes.orderTransferRecord' },
      { to: '/order/vipRecord', labelKey: 'routes.orderVipRecord' },
      { to: '/pay/record', labelKey: 'routes.payRecord' },
      { to: '/user/finance/log', labelKey: 'routes.userFinanceLog' },
    ],
  },
  {
    titleKey: 'assets.services',
    items: [
      { to: '/user/move', labelKey: 'routes.userMove' },
      { to: '/user/buycoin', labelKey: 'routes.userBuycoin' },
      { to: '/user/invite', labelKey: 'routes.userInvite' },
      { to: '/user/bank', labelKey: 'routes.userBank' },
      { to: '/user/help', labelKey: 'routes.userHelp' },
    ],
  },
  {
    titleKey: 'assets.security',
    items: [
      { to: '/user/account', labelKey: 'routes.userAccount' },
      { to: '/user/cert', labelKey: 'routes.userCert' },
      { to: '/user/changePsw', labelKey: 'routes.userChangePsw' },
      { to: '/userforget', labelKey: 'routes.userforget' },
    ],
  },
];
