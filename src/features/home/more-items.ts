/**
 * /home/more: every function SPEC.md §1 names, by label, grouped. Each item is a route or a global popup.
 */
import type { PopupName } from '../../state/popup-store';
import { PATHS, pathWith, type AppHref } from '../../lib/paths';

export type MoreItem =
  | { labelKey: string; to: AppHref }
  | { labelKey: string; popup: Exclude<PopupName, 'sessionExpired' | 'demo'> };

export interface MoreSection {
  titleKey: string;
  items: MoreItem[];
}

export const MORE_SECTIONS: MoreSection[] = [
  {
    titleKey: 'more.funds',
    items: [
      { labelKey: 'more.assets', to: PATHS.user },
      { labelKey: 'more.deposit', to: PATHS.userRecharge },
      { labelKey: 'more.withdraw', to: PATHS.userWithdraw },
      { labelKey: 'more.transfer', to: PATHS.userTransfer },
      { labelKey: 'more.buycoin', to: PATHS.userBuycoin },
    ],
  },
  {
    titleKey: 'more.trading',
    items: [
      { labelKey: 'more.markets', to: PATHS.market },
      { labelKey: 'more.spot', to: pathWith(PATHS.contract, { market: 'spot' }) },
      { labelKey: 'more.contracts', to: pathWith(PATHS.contract, { market: 'contract' }) },
      { labelKey: 'more.options', to: pathWith(PATHS.contract, { market: 'option' }) },
    ],
  },
  {
    titleKey: 'more.wealth',
    items: [
      { labelKey: 'more.finance', to: PATHS.finance },
      { labelKey: 'more.mining', to: PATHS.financeMachine },
      { labelKey: 'more.vip', to: PATHS.userVip },
      { labelKey: 'more.downline', to: PATHS.userInvite },
    ],
  },
  {
    titleKey: 'more.account',
    items: [
      { labelKey: 'more.creditScore', to: PATHS.userAccount },
      { labelKey: 'more.realName', to: PATHS.userCert },
      { labelKey: 'more.bankCards', to: PATHS.userBank },
      { labelKey: 'more.accountManagement', to: PATHS.userAccount },
      { labelKey: 'more.changePassword', to: PATHS.userChangePsw },
      { labelKey: 'more.resetKey', to: PATHS.userforget },
    ],
  },
  {
    titleKey: 'more.records',
    items: [
      { labelKey: 'more.depositRecords', to: PATHS.orderRechargeRecord },
      { labelKey: 'more.withdrawRecords', to: PATHS.orderWithdrawRecord },
      { labelKey: 'more.transferRecords', to: PATHS.orderTransferRecord },
      { labelKey: 'more.vipRecords', to: PATHS.orderVipRecord },
      { labelKey: 'more.financeRecords', to: PATHS.financeOrder },
      { labelKey: 'more.financeLog', to: PATHS.userFinanceLog },
      { labelKey: 'more.auditRecords', to: PATHS.payRecord },
    ],
  },
  {
    titleKey: 'more.settings',
    items: [
      { labelKey: 'more.help', to: PATHS.userHelp },
      { labelKey: 'more.service', popup: 'service' },
      { labelKey: 'more.language', popup: 'language' },
      { labelKey: 'more.theme', popup: 'theme' },
    ],
  },
];
