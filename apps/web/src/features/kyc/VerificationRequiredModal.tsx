import { profileComplete } from '@exchange/shared';
import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type User, useCurrentUser } from '../../api/user.ts';
import { kycStatus } from '../settings/kyc.ts';

/** Router state that asks the page it leads to (settings) to show the verification-required modal. */
export const VERIFICATION_PROMPT = { prompt: 'verification' } as const;

/** True when the router state carries {@link VERIFICATION_PROMPT}. */
export function asksForVerification(state: unknown): boolean {
  return (
    typeof state === 'object' &&
    state !== null &&
    (state as { prompt?: unknown }).prompt === VERIFICATION_PROMPT.prompt
  );
}

/**
 * The verification-required modal (docs/kyc.md#screens): a button to the KYC flow, or to the profile page when
 * the profile lacks gender, dob, address, postcode, city or country.
 */
export function VerificationRequiredModal({
  user,
  opened,
  onClose,
}: {
  user: User;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const incomplete = !profileComplete(user.profiles?.[0]);
  const status = kycStatus(user);
  const go = (to: string) => {
    onClose();
    navigate(to);
  };
  let body = t('kyc.required.body');
  let action: ReactNode = (
    <Button onClick={() => go('/kyc')} data-testid="kyc-required-verify">
      {t('kyc.required.verify')}
    </Button>
  );
  if (incomplete) {
    body = t('kyc.required.profileBody');
    action = (
      <Button onClick={() => go('/profile')} data-testid="kyc-required-profile">
        {t('kyc.required.profile')}
      </Button>
    );
  } else if (status === 'underReview') {
    body = t('kyc.required.pending');
    action = null;
  } else if (status === 'rejected') {
    body = t('resource.kyc.rejected_final');
    action = null;
  }
  return (
    <Modal opened={opened} onClose={onClose} title={t('kyc.required.title')} centered>
      <Text data-testid="kyc-required">{body}</Text>
      <Group justify="flex-end" mt="md">
        {action}
      </Group>
    </Modal>
  );
}

/**
 * Guards an action that needs a verified user (level 3: withdrawals, cards): `allow()` is true for a level-3
 * user, otherwise it opens the verification-required modal, which the caller renders.
 */
export function useVerificationGate() {
  const { data: user } = useCurrentUser();
  const [opened, setOpened] = useState(false);
  const allow = () => {
    if ((user?.level ?? 0) >= 3) return true;
    setOpened(true);
    return false;
  };
  const modal = user ? (
    <VerificationRequiredModal user={user} opened={opened} onClose={() => setOpened(false)} />
  ) : null;
  return { allow, modal };
}
