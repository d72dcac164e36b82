import type { HelpArticles } from '../types';

export const enUS: HelpArticles = {
  register: [
    'How to register',
    'Tap Register, choose a username of letters and digits (up to 25), a login password of at least 6 characters and a security key of at least 4. Give a phone number or an e-mail address, a secret question and answer, and an invitation code if you have one.',
  ],
  topup: [
    'How to top up',
    'Open Deposit, choose TRC-20 or ERC-20 and send USDT to your own address shown there. The amount is credited to your balance after the network confirmations (19 blocks on TRC-20, 12 on ERC-20).',
  ],
  withdraw: [
    'How to withdraw',
    'Open Withdraw, choose the network, paste a wallet address on that network, enter at least 10 USDT and your security key. The fee is 1 USDT on TRC-20 and 5 USDT on ERC-20; after review the funds arrive within 2 hours.',
  ],
  vip: [
    'How to activate VIP',
    'Open Membership, pick a level and confirm with your security key. VIP1 is a 60-day trial with a non-refundable fee; VIP2 and above hold a deposit on your balance that you can refund at any time from the same page.',
  ],
  password: [
    'How to change the login password',
    'Open Account, then Change password. Enter your current password and the new one twice (at least 6 characters). Other devices are signed out.',
  ],
  forgotKey: [
    'Forgotten security key',
    'Open Forgot key from the sign-in page, enter your username, login password and secret answer, then choose a new key. For your safety, withdrawals are paused for 24 hours after a reset.',
  ],
};
