import type { HelpArticles } from '../types';

export const itIT: HelpArticles = {
  register: [
    'Come registrarsi',
    "Tocca Registrati, scegli un nome utente di lettere e cifre (al massimo 25), una password di accesso di almeno 6 caratteri e una chiave di sicurezza di almeno 4. Inserisci un telefono o un'e-mail, una domanda segreta con la risposta e un codice invito, se ne hai uno.",
  ],
  topup: [
    'Come ricaricare',
    "Apri Deposito, scegli TRC-20 o ERC-20 e invia USDT al tuo indirizzo personale mostrato lì. L'importo viene accreditato dopo le conferme di rete (19 blocchi su TRC-20, 12 su ERC-20).",
  ],
  withdraw: [
    'Come prelevare',
    'Apri Prelievo, scegli la rete, incolla un indirizzo di portafoglio su quella rete, inserisci almeno 10 USDT e la tua chiave di sicurezza. La commissione è di 1 USDT su TRC-20 e 5 USDT su ERC-20; dopo la verifica i fondi arrivano entro 2 ore.',
  ],
  vip: [
    'Come attivare il VIP',
    'Apri Abbonamento, scegli un livello e conferma con la chiave di sicurezza. Il VIP1 è una prova di 60 giorni con quota non rimborsabile; dal VIP2 in su un deposito resta bloccato sul saldo e puoi farlo rimborsare in qualsiasi momento dalla stessa pagina.',
  ],
  password: [
    'Come cambiare la password di accesso',
    'Apri Account, poi Cambia password. Inserisci la password attuale e quella nuova due volte (almeno 6 caratteri). Gli altri dispositivi vengono disconnessi.',
  ],
  forgotKey: [
    'Chiave di sicurezza dimenticata',
    'Apri Chiave dimenticata dalla pagina di accesso, inserisci nome utente, password di accesso e risposta segreta, poi scegli una nuova chiave. Per la tua sicurezza, i prelievi sono sospesi per 24 ore dopo il ripristino.',
  ],
};
