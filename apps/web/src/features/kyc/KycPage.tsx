import { ERRORS, type KycTokenResponse } from '@exchange/shared';
import { Alert, Button, Container, Loader, Stack, Text, Title, useComputedColorScheme } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { useCurrentUser } from '../../api/user.ts';
import { errorCodes, errorText } from '../auth/components/errors.ts';
import { kycStatus } from '../settings/kyc.ts';

/** How often the page looks whether the provider's webhooks have moved the KYC label. */
const STATUS_POLL_MS = 3000;

/**
 * `/sumsub-kyc` (docs/kyc.md#screens): the provider's widget. By default the built-in simulator's verification
 * page in a frame; with the real provider, the Sumsub WebSDK. Once the submission is under review (or
 * approved) the user goes to /success.
 */
export function KycPage() {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('dark');
  const navigate = useNavigate();
  const token = useQuery({
    queryKey: ['kycToken'],
    queryFn: () => api<KycTokenResponse>('barong', '/resource/sumsub/token'),
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const user = useCurrentUser({ refetchInterval: STATUS_POLL_MS });
  const initial = useRef<string | null>(null);
  const status = user.data ? kycStatus(user.data) : null;
  useEffect(() => {
    if (!status) return;
    if (initial.current === null) initial.current = status;
    else if (status !== initial.current && (status === 'underReview' || status === 'verified'))
      navigate('/success');
  }, [status, navigate]);

  // The widget reports the applicant it works on; the server keeps it once the provider confirms it.
  const applicantId = token.data?.applicant_id;
  useEffect(() => {
    if (applicantId)
      void api('barong', '/resource/sumsub/applicant_id', {
        method: 'POST',
        body: { applicant_id: applicantId },
      }).catch(() => {});
  }, [applicantId]);

  let content: React.ReactNode;
  if (token.isPending) content = <Loader aria-label={t('kyc.page.loading')} />;
  else if (token.isError) {
    const codes = errorCodes(token.error);
    content = (
      <Alert color={codes.includes(ERRORS.kycAlreadyVerified) ? 'teal' : 'red'} data-testid="kyc-error">
        <Stack gap="sm">
          <Text>{errorText(t, token.error)}</Text>
          <Button component={Link} to="/settings" w="fit-content" variant="light">
            {t('kyc.page.toSettings')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (token.data.provider === 'simulator' && token.data.widget_url)
    content = (
      <iframe
        src={withTheme(token.data.widget_url, scheme)}
        title={t('kyc.page.widget')}
        data-testid="kyc-widget"
        style={{ width: '100%', height: 760, border: 0, borderRadius: 8 }}
      />
    );
  else
    content = (
      <SumsubWebSdk
        data={token.data}
        onSubmitted={() => navigate('/success')}
        refresh={async () => (await token.refetch()).data?.token ?? ''}
      />
    );

  return (
    <Container size="md" py="xl">
      <Stack>
        <Title order={2}>{t('kyc.page.title')}</Title>
        <Text c="dimmed">{t('kyc.page.intro')}</Text>
        {content}
      </Stack>
    </Container>
  );
}

/** The widget's address with the app's colour scheme, so the provider's page follows the dark theme. */
function withTheme(url: string, scheme: 'dark' | 'light'): string {
  const u = new URL(url, window.location.href);
  u.searchParams.set('theme', scheme);
  return u.toString();
}

/** The subset of Sumsub's WebSDK builder used here (the script defines `window.snsWebSdk`). */
interface SnsWebSdk {
  init(
    token: string,
    refresh: () => Promise<string>,
  ): {
    withConf(conf: Record<string, unknown>): ReturnType<SnsWebSdk['init']>;
    on(event: string, handler: (payload: Record<string, unknown>) => void): ReturnType<SnsWebSdk['init']>;
    build(): { launch(selector: string): void };
  };
}

/** Loads the real Sumsub WebSDK (KYC_PROVIDER=sumsub) and launches it with the access token. */
function SumsubWebSdk({
  data,
  onSubmitted,
  refresh,
}: {
  data: KycTokenResponse;
  onSubmitted: () => void;
  refresh: () => Promise<string>;
}) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const callbacks = useRef({ onSubmitted, refresh });
  callbacks.current = { onSubmitted, refresh };
  const { token, sdk_url: sdkUrl } = data;
  useEffect(() => {
    if (!sdkUrl) return;
    const launch = () => {
      const sdk = (window as unknown as { snsWebSdk?: SnsWebSdk }).snsWebSdk;
      if (!sdk) return setFailed(true);
      sdk
        .init(token, () => callbacks.current.refresh())
        .withConf({ lang: 'en' })
        .on('idCheck.onApplicantLoaded', (p) => {
          if (typeof p.applicantId === 'string')
            void api('barong', '/resource/sumsub/applicant_id', {
              method: 'POST',
              body: { applicant_id: p.applicantId },
            }).catch(() => {});
        })
        .on('idCheck.onApplicantSubmitted', () => callbacks.current.onSubmitted())
        .build()
        .launch('#sumsub-websdk-container');
    };
    const existing = document.querySelector<HTMLScriptElement>(`script[src="${sdkUrl}"]`);
    if (existing) {
      launch();
      return;
    }
    const script = document.createElement('script');
    script.src = sdkUrl;
    script.onload = launch;
    script.onerror = () => setFailed(true);
    document.body.appendChild(script);
  }, [token, sdkUrl]);
  if (failed) return <Alert color="red">{t('kyc.page.sdkFailed')}</Alert>;
  return <div id="sumsub-websdk-container" data-testid="kyc-widget" />;
}
