import type { HelpArticles } from '../types';

export const ptBR: HelpArticles = {
  register: [
    'Como se cadastrar',
    'Toque em Cadastrar, escolha um nome de usuário com letras e números (até 25), uma senha de acesso com pelo menos 6 caracteres e uma chave de segurança com pelo menos 4. Informe telefone ou e-mail, pergunta e resposta secretas e um código de convite, se tiver.',
  ],
  topup: [
    'Como depositar',
    'Abra Depósito, escolha TRC-20 ou ERC-20 e envie USDT para o seu endereço exclusivo mostrado ali. O valor é creditado após as confirmações da rede (19 blocos na TRC-20, 12 na ERC-20).',
  ],
  withdraw: [
    'Como sacar',
    'Abra Saque, escolha a rede, cole um endereço de carteira dessa rede, informe pelo menos 10 USDT e sua chave de segurança. A taxa é de 1 USDT na TRC-20 e 5 USDT na ERC-20; após a análise, os fundos chegam em até 2 horas.',
  ],
  vip: [
    'Como ativar o VIP',
    'Abra Assinatura, escolha um nível e confirme com sua chave de segurança. O VIP1 é um teste de 60 dias com taxa não reembolsável; a partir do VIP2, um depósito fica bloqueado no seu saldo e pode ser reembolsado a qualquer momento na mesma página.',
  ],
  password: [
    'Como alterar a senha de acesso',
    'Abra Conta e depois Alterar senha. Digite a senha atual e a nova duas vezes (pelo menos 6 caracteres). Os outros dispositivos são desconectados.',
  ],
  forgotKey: [
    'Esqueci a chave de segurança',
    'Abra Esqueci a chave na página de login, informe seu nome de usuário, senha de acesso e resposta secreta e escolha uma nova chave. Para sua segurança, os saques ficam suspensos por 24 horas após a redefinição.',
  ],
};
