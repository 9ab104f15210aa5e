import { type KycReviewResponse, profileComplete } from '@exchange/shared';
import { Alert, Badge, Button, Container, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { useCurrentUser } from '../../api/user.ts';
import { KYC_COLOR, kycStatus } from '../settings/kyc.ts';

/** The documents the provider's check accepts (FAQ). */
const DOCUMENTS = ['passport', 'idCard', 'drivers', 'military'] as const;

/**
 * `/kyc`: where saving the profile leads (docs/kyc.md#states, docs/accounts.md#states "Save then a KYC redirect"). It
 * says where the user stands and what the check needs, and starts the provider's widget (/sumsub-kyc) only
 * when asked: Proceed on the profile goes straight there.
 */
export function KycStepPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const review = useQuery({
    queryKey: ['kycReview'],
    queryFn: () => api<KycReviewResponse>('barong', '/resource/kyc/review'),
    enabled: user.data !== undefined && user.data !== null,
  });
  if (!user.data) return null;
  const status = kycStatus(user.data);
  // The reviewer's words come with a retry or a rejection only.
  const reviewed = status === 'resubmit' || status === 'rejected';
  const profileReady = profileComplete(user.data.profiles?.[0] ?? {});
  const canStart = profileReady && (status === 'pending' || status === 'initiated' || status === 'resubmit');
  return (
    <Container size="sm" py="xl">
      <Paper withBorder p="lg">
        <Stack>
          <Group justify="space-between">
            <Title order={2}>{t('kyc.step.title')}</Title>
            <Badge color={KYC_COLOR[status]} variant="light" data-testid="kyc-step-status">
              {t(`identity.kyc.${status}`)}
            </Badge>
          </Group>
          <Text data-testid="kyc-step-message">
            {!profileReady
              ? t('kyc.required.profileBody')
              : status === 'verified'
                ? t('kyc.page.verified')
                : status === 'underReview'
                  ? t('kyc.required.pending')
                  : status === 'rejected'
                    ? t('resource.kyc.rejected_final')
                    : t('kyc.step.next')}
          </Text>
          {reviewed && review.data?.comment && (
            <Alert color={status === 'rejected' ? 'red' : 'orange'} title={t('kyc.step.comment')}>
              <Text size="sm" data-testid="kyc-step-comment">
                {review.data.comment}
              </Text>
            </Alert>
          )}
          {canStart && (
            <>
              <Text size="sm">{t('kyc.step.documents')}</Text>
              <List size="sm" data-testid="kyc-step-documents">
                {DOCUMENTS.map((d) => (
                  <List.Item key={d}>{t(`kyc.step.document.${d}`)}</List.Item>
                ))}
              </List>
              <Text size="sm" c="dimmed">
                {t('kyc.step.selfie')}
              </Text>
            </>
          )}
          <Group>
            {canStart && (
              <Button component={Link} to="/sumsub-kyc">
                {t('kyc.step.start')}
              </Button>
            )}
            <Button component={Link} to="/settings" variant="light">
              {profileReady ? t('kyc.page.toSettings') : t('kyc.required.profile')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
