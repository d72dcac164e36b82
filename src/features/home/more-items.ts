/**
 * /home/more: every function SPEC.md §1 names, by label, grouped. Each item is a route or a global popup.
 */
import type { PopupName } from '../../app/popup-store';

export type MoreItem =
  | { labelKey: string; to: string }
  | { labelKey: string; popup: Exclude<PopupName, 'sessionExpired' | 'demo'> };

export interface MoreSection {
  titleKey: string;
  items: MoreItem[];
}

export const MORE_SECTIONS: MoreSection[] = [
  {
    titleKey: 'more.funds',
    items: [
      { labelKey: 'more.assets', to: '/user' },
      { labelKey: 'more.deposit', to: '/user/recharge' },
      { labelKey: 'more.withdraw', to: '/user/withdraw' },
      { labelKey: 'more.transfer', to: '/user/transfer' },
      { labelKey: 'more.buycoin', to: '/user/buycoin' },
    ],
  },
  {
    titleKey: 'more.trading',
    items: [
      { labelKey: 'more.markets', to: '/market' },
      { labelKey: 'more.spot', to: '/contract?market=spot' },
      { labelKey: 'more.contracts', to: '/contract?market=contract' },
      { labelKey: 'more.options', to: '/contract?market=option' },
    ],
  },
  {
    titleKey: 'more.wealth',
    items: [
      { labelKey: 'more.finance', to: '/finance/finance' },
      { labelKey: 'more.mining', to: '/finance/machine' },
      { labelKey: 'more.vip', to: '/user/vip' },
      { labelKey: 'more.downline', to: '/user/invite' },
    ],
  },
  {
    titleKey: 'more.account',
    items: [
      { labelKey: 'more.creditScore', to: '/user/account' },
      { labelKey: 'more.realName', to: '/user/cert' },
      { labelKey: 'more.bankCards', to: '/user/bank' },
      { labelKey: 'more.accountManagement', to: '/user/account' },
      { labelKey: 'more.changePassword', to: '/user/changePsw' },
      { labelKey: 'more.resetKey', to: '/userforget' },
    ],
  },
  {
    titleKey: 'more.records',
    items: [
      { labelKey: 'more.depositRecords', to: '/order/rechargeRecord' },
      { labelKey: 'more.withdrawRecords', to: '/order/withdrawRecord' },
      { labelKey: 'more.transferRecords', to: '/order/transferRecord' },
      { labelKey: 'more.vipRecords', to: '/order/vipRecord' },
      { labelKey: 'more.financeRecords', to: '/finance/order' },
      { labelKey: 'more.financeLog', to: '/user/finance/log' },
      { labelKey: 'more.auditRecords', to: '/pay/record' },
    ],
  },
  {
    titleKey: 'more.settings',
    items: [
      { labelKey: 'more.help', to: '/user/help' },
      { labelKey: 'more.service', popup: 'service' },
      { labelKey: 'more.language', popup: 'language' },
      { labelKey: 'more.theme', popup: 'theme' },
    ],
  },
];
