import { Box, Container, LoadingOverlay } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { DocumentStateRedirect } from '../features/kyc/DocumentStateRedirect.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { IdleLogout } from './IdleLogout.tsx';
import { PrivacyConsent } from './PrivacyConsent.tsx';

/** Header, page, footer. */
export function Layout() {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <IdleLogout />
      <PrivacyConsent />
      <DocumentStateRedirect />
      <Header />
      <Box component="main" style={{ flex: 1 }}>
        <Container size="xl" px={0}>
          <Suspense fallback={<LoadingOverlay visible />}>
            <Outlet />
          </Suspense>
        </Container>
      </Box>
      <Footer />
    </Box>
  );
}
