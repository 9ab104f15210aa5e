import type { ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Placeholder } from '../components/Placeholder.tsx';
import { ApiTokensPage } from '../features/api-tokens/ApiTokensPage.tsx';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { RegisterPage } from '../features/auth/RegisterPage.tsx';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage.tsx';
import { VerifyAccountPage } from '../features/auth/VerifyAccountPage.tsx';
import { ContactPage } from '../features/contact/ContactPage.tsx';
import { DevInboxPage } from '../features/dev/DevInboxPage.tsx';
import { ChangePhonePage } from '../features/phone/ChangePhonePage.tsx';
import { SettingsPage } from '../features/settings/SettingsPage.tsx';
import { AmlPolicyPage } from '../features/static/AmlPolicyPage.tsx';
import { CardMarketingPage } from '../features/static/CardMarketingPage.tsx';
import { FaqPage } from '../features/static/FaqPage.tsx';
import { LandingPage } from '../features/static/LandingPage.tsx';
import { PrivacyPage } from '../features/static/PrivacyPage.tsx';
import { SuccessPage } from '../features/static/SuccessPage.tsx';
import { TermsPage } from '../features/static/TermsPage.tsx';
import { OrderHistoryPage } from '../features/trading/OrderHistoryPage.tsx';
import { TradingPage } from '../features/trading/TradingPage.tsx';
import { GuestOnly, Protected } from './guards.tsx';
import { Layout } from './Layout.tsx';

const guest = (element: ReactNode) => <GuestOnly>{element}</GuestOnly>;
const protect = (element: ReactNode) => <Protected>{element}</Protected>;

/** The route table of the accounts spec §2 and the trading spec §2. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/login', element: guest(<LoginPage />) },
      { path: '/2fa', element: guest(<LoginPage />) },
      { path: '/register', element: guest(<RegisterPage />) },
      { path: '/forgot-password', element: guest(<ForgotPasswordPage />) },
      { path: '/password-reset/:token', element: <ResetPasswordPage /> },
      { path: '/verify-account', element: <VerifyAccountPage /> },
      { path: '/success', element: <SuccessPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/faq', element: <FaqPage /> },
      { path: '/contact', element: <ContactPage /> },
      { path: '/amlPolicy', element: <AmlPolicyPage /> },
      { path: '/european-account', element: <CardMarketingPage /> },
      { path: '/settings', element: protect(<SettingsPage />) },
      { path: '/api-tokens', element: protect(<ApiTokensPage />) },
      { path: '/update-number/phone', element: protect(<ChangePhonePage />) },
      { path: '/sumsub-kyc', element: protect(<Placeholder name="Identity verification" />) },
      { path: '/balance', element: protect(<Placeholder name="Spot Balance" />) },
      { path: '/deposit_withdraw', element: protect(<Placeholder name="Deposit/Withdraw" />) },
      { path: '/card', element: protect(<Placeholder name="Card" />) },
      { path: '/view_statement', element: protect(<Placeholder name="Statement" />) },
      { path: '/history/account', element: protect(<Placeholder name="Transaction History" />) },
      { path: '/history/orders', element: protect(<OrderHistoryPage />) },
      { path: '/swap', element: protect(<Placeholder name="Swap" />) },
      { path: '/trade/:market?', element: protect(<TradingPage />) },
      { path: '/dev/inbox', element: <DevInboxPage /> },
      { path: '/kyc', element: <Navigate to="/sumsub-kyc" replace /> },
      { path: '/profile', element: <Navigate to="/settings" replace /> },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
