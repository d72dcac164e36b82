import type { HelpArticles } from '../types';

export const csCZ: HelpArticles = {
  register: [
    'Jak se zaregistrovat',
    'Klepněte na Registrace, zvolte uživatelské jméno z písmen a číslic (nejvýše 25), přihlašovací heslo alespoň o 6 znacích a bezpečnostní klíč alespoň o 4 znacích. Zadejte telefon nebo e-mail, tajnou otázku a odpověď a případně kód pozvánky.',
  ],
  topup: [
    'Jak dobít účet',
    'Otevřete Vklad, zvolte TRC-20 nebo ERC-20 a pošlete USDT na svou osobní adresu, která se tam zobrazí. Částka se připíše po potvrzeních sítě (19 bloků v TRC-20, 12 v ERC-20).',
  ],
  withdraw: [
    'Jak vybrat prostředky',
    'Otevřete Výběr, zvolte síť, vložte adresu peněženky v téže síti, zadejte alespoň 10 USDT a bezpečnostní klíč. Poplatek je 1 USDT v TRC-20 a 5 USDT v ERC-20; po kontrole dorazí prostředky do 2 hodin.',
  ],
  vip: [
    'Jak aktivovat VIP',
    'Otevřete Členství, vyberte úroveň a potvrďte bezpečnostním klíčem. VIP1 je 60denní zkušební verze s nevratným poplatkem; od VIP2 výš je na zůstatku blokována záloha, kterou lze kdykoli vrátit na téže stránce.',
  ],
  password: [
    'Jak změnit přihlašovací heslo',
    'Otevřete Účet a pak Změnit heslo. Zadejte současné heslo a dvakrát nové (alespoň 6 znaků). Ostatní zařízení budou odhlášena.',
  ],
  forgotKey: [
    'Zapomenutý bezpečnostní klíč',
    'Na přihlašovací stránce otevřete Zapomenutý klíč, zadejte uživatelské jméno, přihlašovací heslo a tajnou odpověď a zvolte nový klíč. Z bezpečnostních důvodů jsou výběry po obnovení na 24 hodin pozastaveny.',
  ],
};
