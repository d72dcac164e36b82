import type { HelpArticles } from '../types';

export const deDE: HelpArticles = {
  register: [
    'So registrieren Sie sich',
    'Tippen Sie auf Registrieren und wählen Sie einen Benutzernamen aus Buchstaben und Ziffern (höchstens 25), ein Anmeldepasswort mit mindestens 6 Zeichen und einen Sicherheitsschlüssel mit mindestens 4 Zeichen. Geben Sie Telefon oder E-Mail, eine Sicherheitsfrage mit Antwort und gegebenenfalls einen Einladungscode an.',
  ],
  topup: [
    'So zahlen Sie ein',
    'Öffnen Sie Einzahlung, wählen Sie TRC-20 oder ERC-20 und senden Sie USDT an Ihre dort angezeigte persönliche Adresse. Der Betrag wird nach den Netzwerkbestätigungen gutgeschrieben (19 Blöcke bei TRC-20, 12 bei ERC-20).',
  ],
  withdraw: [
    'So zahlen Sie aus',
    'Öffnen Sie Auszahlung, wählen Sie das Netzwerk, fügen Sie eine Wallet-Adresse in diesem Netzwerk ein und geben Sie mindestens 10 USDT sowie Ihren Sicherheitsschlüssel ein. Die Gebühr beträgt 1 USDT bei TRC-20 und 5 USDT bei ERC-20; nach der Prüfung kommt das Geld innerhalb von 2 Stunden an.',
  ],
  vip: [
    'So aktivieren Sie VIP',
    'Öffnen Sie Mitgliedschaft, wählen Sie eine Stufe und bestätigen Sie mit Ihrem Sicherheitsschlüssel. VIP1 ist ein 60-tägiger Test mit nicht erstattbarer Gebühr; ab VIP2 wird eine Kaution auf Ihrem Guthaben gesperrt, die Sie jederzeit auf derselben Seite zurückfordern können.',
  ],
  password: [
    'So ändern Sie das Anmeldepasswort',
    'Öffnen Sie Konto und dann Passwort ändern. Geben Sie das aktuelle Passwort und zweimal das neue ein (mindestens 6 Zeichen). Andere Geräte werden abgemeldet.',
  ],
  forgotKey: [
    'Sicherheitsschlüssel vergessen',
    'Öffnen Sie auf der Anmeldeseite Schlüssel vergessen, geben Sie Benutzernamen, Anmeldepasswort und Sicherheitsantwort ein und wählen Sie einen neuen Schlüssel. Zu Ihrer Sicherheit sind Auszahlungen nach dem Zurücksetzen 24 Stunden lang gesperrt.',
  ],
};
