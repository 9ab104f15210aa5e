import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { accountClosure } from './en/account-closure.ts';
import { admin } from './en/admin.ts';
import { adminCustody } from './en/admin-custody.ts';
import { adminMarkets } from './en/admin-markets.ts';
import { adminMonitoring } from './en/admin-monitoring.ts';
import { adminSanctions } from './en/admin-sanctions.ts';
import { adminSolvency } from './en/admin-solvency.ts';
import { adminTravelRule } from './en/admin-travel-rule.ts';
import { captcha } from './en/captcha.ts';
import { card } from './en/card.ts';
import { cardMoney } from './en/card-money.ts';
import { common } from './en/common.ts';
import { company } from './en/company.ts';
import { contact } from './en/contact.ts';
import { dev } from './en/dev.ts';
import { errors } from './en/errors.ts';
import { identity } from './en/identity.ts';
import { kyc } from './en/kyc.ts';
import { payouts } from './en/payouts.ts';
import { securityLog } from './en/security-log.ts';
import { staticPages } from './en/static.ts';
import { trading } from './en/trading.ts';
import { tradingScreen } from './en/trading-screen.ts';
import { wallet } from './en/wallet.ts';

/** The English catalogue: every user-facing string, keyed flat (server error codes are keys as they are). */
export const en = {
  ...dev,
  ...common,
  ...errors,
  ...contact,
  ...staticPages,
  ...identity,
  ...securityLog,
  ...accountClosure,
  ...kyc,
  ...company,
  ...captcha,
  ...trading,
  ...tradingScreen,
  ...wallet,
  ...payouts,
  ...card,
  ...cardMoney,
  ...admin,
  ...adminMarkets,
  ...adminSolvency,
  ...adminCustody,
  ...adminSanctions,
  ...adminMonitoring,
  ...adminTravelRule,
};

void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en } },
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Translates outside React components (API client, toasts). */
export const t = i18next.t.bind(i18next);

/** Message for an error code; unknown codes fall back to the generic server error text. */
export function messageFor(code: string): string {
  return i18next.exists(code) ? i18next.t(code) : i18next.t('server.error');
}

export default i18next;
