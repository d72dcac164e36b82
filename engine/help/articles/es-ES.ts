import type { HelpArticles } from '../types';

export const esES: HelpArticles = {
  register: [
    'Cómo registrarse',
    'Pulsa Registrarse, elige un nombre de usuario de letras y números (hasta 25), una contraseña de acceso de al menos 6 caracteres y una clave de seguridad de al menos 4. Indica un teléfono o un correo, una pregunta secreta con su respuesta y un código de invitación si lo tienes.',
  ],
  topup: [
    'Cómo recargar',
    'Abre Depósito, elige TRC-20 o ERC-20 y envía USDT a tu dirección exclusiva que aparece allí. El importe se abona tras las confirmaciones de la red (19 bloques en TRC-20, 12 en ERC-20).',
  ],
  withdraw: [
    'Cómo retirar',
    'Abre Retiro, elige la red, pega una dirección de monedero de esa red e introduce al menos 10 USDT y tu clave de seguridad. La comisión es de 1 USDT en TRC-20 y 5 USDT en ERC-20; tras la revisión, los fondos llegan en menos de 2 horas.',
  ],
  vip: [
    'Cómo activar el VIP',
    'Abre Membresía, elige un nivel y confírmalo con tu clave de seguridad. El VIP1 es una prueba de 60 días con una tarifa no reembolsable; desde el VIP2, un depósito queda bloqueado en tu saldo y puedes recuperarlo en cualquier momento desde la misma página.',
  ],
  password: [
    'Cómo cambiar la contraseña de acceso',
    'Abre Cuenta y luego Cambiar contraseña. Escribe la contraseña actual y la nueva dos veces (al menos 6 caracteres). Se cerrará la sesión en los demás dispositivos.',
  ],
  forgotKey: [
    'Clave de seguridad olvidada',
    'Abre Olvidé la clave en la página de acceso, introduce tu usuario, tu contraseña de acceso y tu respuesta secreta, y elige una clave nueva. Por tu seguridad, los retiros quedan en pausa 24 horas tras el restablecimiento.',
  ],
};
