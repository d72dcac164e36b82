import type { HelpArticles } from '../types';

export const plPL: HelpArticles = {
  register: [
    'Jak się zarejestrować',
    'Stuknij Rejestracja, wybierz nazwę użytkownika z liter i cyfr (maksymalnie 25), hasło logowania o długości co najmniej 6 znaków i klucz bezpieczeństwa o długości co najmniej 4. Podaj telefon lub e-mail, pytanie i odpowiedź zabezpieczającą oraz kod zaproszenia, jeśli go masz.',
  ],
  topup: [
    'Jak doładować konto',
    'Otwórz Wpłata, wybierz TRC-20 lub ERC-20 i wyślij USDT na wyświetlony tam własny adres. Kwota zostanie zaksięgowana po potwierdzeniach sieci (19 bloków w TRC-20, 12 w ERC-20).',
  ],
  withdraw: [
    'Jak wypłacić środki',
    'Otwórz Wypłata, wybierz sieć, wklej adres portfela w tej sieci, wpisz co najmniej 10 USDT i klucz bezpieczeństwa. Opłata wynosi 1 USDT w TRC-20 i 5 USDT w ERC-20; po weryfikacji środki docierają w ciągu 2 godzin.',
  ],
  vip: [
    'Jak aktywować VIP',
    'Otwórz Członkostwo, wybierz poziom i potwierdź kluczem bezpieczeństwa. VIP1 to 60-dniowy okres próbny z bezzwrotną opłatą; od VIP2 wzwyż kaucja jest blokowana na saldzie i można ją odzyskać w dowolnej chwili na tej samej stronie.',
  ],
  password: [
    'Jak zmienić hasło logowania',
    'Otwórz Konto, a następnie Zmień hasło. Wpisz obecne hasło i dwukrotnie nowe (co najmniej 6 znaków). Inne urządzenia zostaną wylogowane.',
  ],
  forgotKey: [
    'Zapomniany klucz bezpieczeństwa',
    'Na stronie logowania otwórz Nie pamiętam klucza, wpisz nazwę użytkownika, hasło logowania i odpowiedź zabezpieczającą, a potem ustaw nowy klucz. Dla bezpieczeństwa wypłaty są wstrzymane przez 24 godziny po zresetowaniu.',
  ],
};
