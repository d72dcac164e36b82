import type { HelpArticles } from '../types';

export const idID: HelpArticles = {
  register: [
    'Cara mendaftar',
    'Ketuk Daftar, pilih nama pengguna berupa huruf dan angka (maksimal 25), kata sandi masuk minimal 6 karakter, dan kunci keamanan minimal 4 karakter. Isi nomor telepon atau e-mail, pertanyaan dan jawaban rahasia, serta kode undangan jika ada.',
  ],
  topup: [
    'Cara isi saldo',
    'Buka Deposit, pilih TRC-20 atau ERC-20, lalu kirim USDT ke alamat pribadi Anda yang ditampilkan. Jumlahnya masuk ke saldo setelah konfirmasi jaringan (19 blok di TRC-20, 12 blok di ERC-20).',
  ],
  withdraw: [
    'Cara menarik dana',
    'Buka Penarikan, pilih jaringan, tempel alamat dompet di jaringan yang sama, masukkan minimal 10 USDT dan kunci keamanan. Biayanya 1 USDT di TRC-20 dan 5 USDT di ERC-20; setelah ditinjau, dana tiba dalam 2 jam.',
  ],
  vip: [
    'Cara mengaktifkan VIP',
    'Buka Keanggotaan, pilih level, dan konfirmasi dengan kunci keamanan. VIP1 adalah uji coba 60 hari dengan biaya yang tidak dapat dikembalikan; VIP2 ke atas menahan deposit di saldo Anda yang bisa dikembalikan kapan saja dari halaman yang sama.',
  ],
  password: [
    'Cara mengganti kata sandi masuk',
    'Buka Akun, lalu Ganti kata sandi. Masukkan kata sandi saat ini dan kata sandi baru dua kali (minimal 6 karakter). Perangkat lain akan dikeluarkan.',
  ],
  forgotKey: [
    'Lupa kunci keamanan',
    'Buka Lupa kunci dari halaman masuk, masukkan nama pengguna, kata sandi masuk, dan jawaban rahasia, lalu pilih kunci baru. Demi keamanan, penarikan dihentikan selama 24 jam setelah pengaturan ulang.',
  ],
};
