import { Box, Container, LoadingOverlay } from '@mantine/core';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { DocumentStateRedirect } from '../features/kyc/DocumentStateRedirect.tsx';
import { useDialogFocusReturn } from './dialogFocus.ts';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { IdleLogout } from './IdleLogout.tsx';
import { useLoadingFocusReturn } from './loadingFocus.ts';
import { PrivacyConsent } from './PrivacyConsent.tsx';

/**
 * Header, page, footer; first in the tab order, a link that skips the header (WCAG 2.4.1). A closed dialog gives
 * the focus back to where it was, and a button busy with its request gets it back when done (WCAG 2.4.3).
 */
export function Layout() {
  const { t } = useTranslation();
  useDialogFocusReturn();
  useLoadingFocusReturn();
  // The trading screen uses the whole width of the window, as exchanges do: its chart and tables need it.
  const fluid = useLocation().pathname.startsWith('/trade');
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <a href="#main" className="skip-link">
        {t('nav.skipToContent')}
      </a>
      <IdleLogout />
      <PrivacyConsent />
      <DocumentStateRedirect />
      <Header />
      <Box component="main" id="main" tabIndex={-1} style={{ flex: 1, outline: 'none' }}>
        <Container size="xl" fluid={fluid} px={0}>
          <Suspense fallback={<LoadingOverlay visible />}>
            <Outlet />
          </Suspense>
        </Container>
      </Box>
      <Footer />
    </Box>
  );
}
