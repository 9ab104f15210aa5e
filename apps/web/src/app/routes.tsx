import { type ComponentType, lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../features/static/LandingPage.tsx';
import { GuestOnly, type LazyScreen, Protected } from './guards.tsx';
import { Layout } from './Layout.tsx';

/**
 * A screen loaded on first visit, so the first page does not carry every screen's code. `preload` asks for its code
 * ahead of the first render (the guards do, while they check the session).
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyScreen {
  return Object.assign(
    lazy(async () => ({ default: (await load())[name] })),
    { preload: load },
  );
}

const ApiTokensPage = page(() => import('../features/api-tokens/ApiTokensPage.tsx'), 'ApiTokensPage');
const ForgotPasswordPage = page(
  () => import('../features/auth/ForgotPasswordPage.tsx'),
  'ForgotPasswordPage',
);
const LoginPage = page(() => import('../features/auth/LoginPage.tsx'), 'LoginPage');
const RegisterPage = page(() => import('../features/auth/RegisterPage.tsx'), 'RegisterPage');
const ResetPasswordPage = page(() => import('../features/auth/ResetPasswordPage.tsx'), 'ResetPasswordPage');
const VerifyAccountPage = page(() => import('../features/auth/VerifyAccountPage.tsx'), 'VerifyAccountPage');
const AccountConfirmationPage = page(
  () => import('../features/auth/AccountConfirmationPage.tsx'),
  'AccountConfirmationPage',
);
const CardPage = page(() => import('../features/card/CardPage.tsx'), 'CardPage');
const StatementPage = page(() => import('../features/card/StatementPage.tsx'), 'StatementPage');
const KycPage = page(() => import('../features/kyc/KycPage.tsx'), 'KycPage');
const AdminPage = page(() => import('../features/admin/AdminPage.tsx'), 'AdminPage');
const KycStepPage = page(() => import('../features/kyc/KycStepPage.tsx'), 'KycStepPage');
const ContactPage = page(() => import('../features/contact/ContactPage.tsx'), 'ContactPage');
const DevFaucetPage = page(() => import('../features/dev/DevFaucetPage.tsx'), 'DevFaucetPage');
const DevCardTerminalPage = page(
  () => import('../features/dev/DevCardTerminalPage.tsx'),
  'DevCardTerminalPage',
);
const DevInboxPage = page(() => import('../features/dev/DevInboxPage.tsx'), 'DevInboxPage');
const ChangePhonePage = page(() => import('../features/phone/ChangePhonePage.tsx'), 'ChangePhonePage');
const SettingsPage = page(() => import('../features/settings/SettingsPage.tsx'), 'SettingsPage');
const AmlPolicyPage = page(() => import('../features/static/AmlPolicyPage.tsx'), 'AmlPolicyPage');
const CardMarketingPage = page(() => import('../features/static/CardMarketingPage.tsx'), 'CardMarketingPage');
const FaqPage = page(() => import('../features/static/FaqPage.tsx'), 'FaqPage');
const PrivacyPage = page(() => import('../features/static/PrivacyPage.tsx'), 'PrivacyPage');
const SuccessPage = page(() => import('../features/static/SuccessPage.tsx'), 'SuccessPage');
const TermsPage = page(() => import('../features/static/TermsPage.tsx'), 'TermsPage');
const OrderHistoryPage = page(() => import('../features/trading/OrderHistoryPage.tsx'), 'OrderHistoryPage');
const TradingPage = page(() => import('../features/trading/TradingPage.tsx'), 'TradingPage');
const BalancePage = page(() => import('../features/wallet/BalancePage.tsx'), 'BalancePage');
const BankDepositPage = page(() => import('../features/wallet/BankDepositPage.tsx'), 'BankDepositPage');
const DepositWithdrawPage = page(
  () => import('../features/wallet/DepositWithdrawPage.tsx'),
  'DepositWithdrawPage',
);
const PayoutsPage = page(() => import('../features/payouts/PayoutsPage.tsx'), 'PayoutsPage');
const PayoutFilePage = page(() => import('../features/payouts/PayoutFilePage.tsx'), 'PayoutFilePage');
const SwapPage = page(() => import('../features/wallet/SwapPage.tsx'), 'SwapPage');
const TransactionHistoryPage = page(
  () => import('../features/wallet/TransactionHistoryPage.tsx'),
  'TransactionHistoryPage',
);

const guest = (screen: LazyScreen) => <GuestOnly screen={screen} />;
const protect = (screen: LazyScreen) => <Protected screen={screen} />;

/** The route table of docs/accounts.md#screens and docs/trading.md#screens. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/login', element: guest(LoginPage) },
      { path: '/2fa', element: guest(LoginPage) },
      { path: '/register', element: guest(RegisterPage) },
      { path: '/forgot-password', element: guest(ForgotPasswordPage) },
      { path: '/password-reset/:token', element: <ResetPasswordPage /> },
      { path: '/verify-account', element: <VerifyAccountPage /> },
      // The confirmation link of an email-and-password sign-up (BASEAPP_COMPAT).
      { path: '/accounts/confirmation', element: <AccountConfirmationPage /> },
      { path: '/success', element: <SuccessPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/faq', element: <FaqPage /> },
      { path: '/contact', element: <ContactPage /> },
      { path: '/amlPolicy', element: <AmlPolicyPage /> },
      { path: '/european-account', element: <CardMarketingPage /> },
      { path: '/settings', element: protect(SettingsPage) },
      { path: '/api-tokens', element: protect(ApiTokensPage) },
      { path: '/update-number/phone', element: protect(ChangePhonePage) },
      { path: '/sumsub-kyc', element: protect(KycPage) },
      { path: '/balance', element: protect(BalancePage) },
      { path: '/deposit_withdraw', element: protect(DepositWithdrawPage) },
      { path: '/deposit/eur', element: protect(BankDepositPage) },
      { path: '/card', element: protect(CardPage) },
      { path: '/view_statement', element: protect(StatementPage) },
      { path: '/history/account', element: protect(TransactionHistoryPage) },
      { path: '/history/orders', element: protect(OrderHistoryPage) },
      { path: '/swap', element: protect(SwapPage) },
      { path: '/payouts', element: protect(PayoutsPage) },
      { path: '/payouts/:id', element: protect(PayoutFilePage) },
      // Market data is public (docs/trading.md#permissions): visitors see the screen, the order form asks them to log in.
      { path: '/trade/:market?', element: <TradingPage /> },
      { path: '/dev/inbox', element: <DevInboxPage /> },
      { path: '/dev/faucet', element: <DevFaucetPage /> },
      { path: '/dev/card-terminal', element: <DevCardTerminalPage /> },
      { path: '/kyc', element: protect(KycStepPage) },
      { path: '/admin', element: protect(AdminPage) },
      { path: '/profile', element: <Navigate to="/settings" replace /> },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
