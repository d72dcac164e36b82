import type { HelpArticles } from '../types';

export const frFR: HelpArticles = {
  register: [
    "Comment s'inscrire",
    "Touchez S'inscrire, choisissez un nom d'utilisateur en lettres et chiffres (25 au plus), un mot de passe d'au moins 6 caractères et une clé de sécurité d'au moins 4. Indiquez un téléphone ou un e-mail, une question secrète et sa réponse, et un code d'invitation si vous en avez un.",
  ],
  topup: [
    'Comment approvisionner',
    'Ouvrez Dépôt, choisissez TRC-20 ou ERC-20 et envoyez des USDT à votre adresse personnelle affichée. Le montant est crédité après les confirmations du réseau (19 blocs sur TRC-20, 12 sur ERC-20).',
  ],
  withdraw: [
    'Comment retirer',
    'Ouvrez Retrait, choisissez le réseau, collez une adresse de portefeuille sur ce réseau, saisissez au moins 10 USDT et votre clé de sécurité. Les frais sont de 1 USDT sur TRC-20 et 5 USDT sur ERC-20 ; après vérification, les fonds arrivent en moins de 2 heures.',
  ],
  vip: [
    'Comment activer le VIP',
    'Ouvrez Adhésion, choisissez un niveau et confirmez avec votre clé de sécurité. Le VIP1 est un essai de 60 jours dont les frais ne sont pas remboursés ; à partir du VIP2, un dépôt est bloqué sur votre solde et remboursable à tout moment depuis la même page.',
  ],
  password: [
    'Comment changer le mot de passe',
    'Ouvrez Compte, puis Changer le mot de passe. Saisissez le mot de passe actuel et le nouveau deux fois (au moins 6 caractères). Les autres appareils sont déconnectés.',
  ],
  forgotKey: [
    'Clé de sécurité oubliée',
    "Ouvrez Clé oubliée depuis la page de connexion, saisissez votre nom d'utilisateur, votre mot de passe et votre réponse secrète, puis choisissez une nouvelle clé. Par sécurité, les retraits sont suspendus 24 heures après une réinitialisation.",
  ],
};
