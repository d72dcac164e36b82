import type { HelpArticles } from '../types';

export const trTR: HelpArticles = {
  register: [
    'Nasıl kayıt olunur',
    "Kayıt Ol'a dokunun; harf ve rakamlardan oluşan bir kullanıcı adı (en fazla 25), en az 6 karakterli bir giriş şifresi ve en az 4 karakterli bir güvenlik anahtarı seçin. Telefon ya da e-posta, gizli soru ve cevabı ve varsa davet kodunu girin.",
  ],
  topup: [
    'Nasıl para yatırılır',
    "Yatırma'yı açın, TRC-20 veya ERC-20'yi seçin ve orada gösterilen size özel adrese USDT gönderin. Tutar ağ onaylarından sonra (TRC-20'de 19, ERC-20'de 12 blok) bakiyenize eklenir.",
  ],
  withdraw: [
    'Nasıl para çekilir',
    "Çekme'yi açın, ağı seçin, aynı ağdaki cüzdan adresini yapıştırın, en az 10 USDT ve güvenlik anahtarınızı girin. Ücret TRC-20'de 1 USDT, ERC-20'de 5 USDT'dir; incelemeden sonra para 2 saat içinde ulaşır.",
  ],
  vip: [
    'VIP nasıl etkinleştirilir',
    "Üyelik'i açın, bir seviye seçin ve güvenlik anahtarınızla onaylayın. VIP1, ücreti iade edilmeyen 60 günlük bir denemedir; VIP2 ve üzerinde teminat bakiyenizde dondurulur ve aynı sayfadan istediğiniz zaman iade edilebilir.",
  ],
  password: [
    'Giriş şifresi nasıl değiştirilir',
    "Hesap'ı, ardından Şifre değiştir'i açın. Mevcut şifrenizi ve yeni şifreyi iki kez (en az 6 karakter) girin. Diğer cihazlarda oturum kapatılır.",
  ],
  forgotKey: [
    'Unutulan güvenlik anahtarı',
    "Giriş sayfasından Anahtarı unuttum'u açın, kullanıcı adınızı, giriş şifrenizi ve gizli cevabınızı girip yeni bir anahtar seçin. Güvenliğiniz için sıfırlamadan sonra 24 saat boyunca para çekme durdurulur.",
  ],
};
