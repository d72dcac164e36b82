/** The accounts domain: captcha, registration, sessions, credentials, uploads and identity verification. */
import type { Domain } from '../routes';
import { verifyHandler } from './captcha';
import { certHandler, reviewCert } from './cert';
import {
  editKeyHandler,
  editPswHandler,
  forgetHandler,
  forgetKeyHandler,
  questionHandler,
} from './passwords';
import { registerHandler } from './register';
import { getUserHandler, loginHandler, logoutHandler } from './session';
import { sweepHook } from './sweep';
import { fileHandler, uploadsHandler } from './uploads';

export const accountsDomain: Domain = {
  name: 'accounts',
  handlers: {
    '/index/index/verify': verifyHandler,
    '/api/index/register': registerHandler,
    '/api/index/login': loginHandler,
    '/api/index/logout': logoutHandler,
    '/api/user/getuser': getUserHandler,
    '/api/user/editPsw': editPswHandler,
    '/api/user/edituserPsw': editKeyHandler,
    '/api/index/question': questionHandler,
    '/api/index/forget': forgetHandler,
    '/api/index/forgetKey': forgetKeyHandler,
    '/api/user/uploads': uploadsHandler('user'),
    '/api/Recharges/uploads': uploadsHandler('recharge'),
    '/uploads/:id': fileHandler,
    '/api/user/cert': certHandler,
  },
  jobs: { 'accounts.certReview': reviewCert },
  periodic: [sweepHook],
};
