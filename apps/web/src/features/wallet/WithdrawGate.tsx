import { SANCTIONS_ERRORS } from '@exchange/shared';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../api/user.ts';
import { longDate } from '../../components/format.tsx';
import { VerificationRequiredModal } from '../kyc/VerificationRequiredModal.tsx';
import { TwoFactorModal } from '../settings/TwoFactorModal.tsx';
import { WALLET_KEYS, type WithdrawPermission } from './api.ts';

/** Level needed to withdraw (docs/wallet.md#permissions). */
export const WITHDRAW_LEVEL = 3;

/** What stands between the user and a withdrawal: identity verification first, then 2FA. */
export type WithdrawPrompt = 'kyc' | 'otp';

export function withdrawPrompt(permission: WithdrawPermission | undefined): WithdrawPrompt | undefined {
  if (!permission) return undefined;
  if (permission.level < WITHDRAW_LEVEL) return 'kyc';
  if (!permission.otp) return 'otp';
  return undefined;
}

/** Enabling 2FA from the wallet: the settings dialog, then the permission is asked for again. */
function EnableTwoFactor({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  return (
    <TwoFactorModal
      mode="enable"
      onClose={() => {
        void client.invalidateQueries({ queryKey: WALLET_KEYS.permission });
        onClose();
      }}
    />
  );
}

/** The prompt shown on choosing Withdraw: verify identity in settings, or enable two-factor. */
export function WithdrawPromptModal({ prompt, onClose }: { prompt: WithdrawPrompt; onClose: () => void }) {
  const { t } = useTranslation();
  const [enabling, setEnabling] = useState(false);
  const { data: user } = useCurrentUser();
  if (enabling) return <EnableTwoFactor onClose={onClose} />;
  // Identity first: the verification-required modal leads to the KYC flow, or to the profile when incomplete.
  if (prompt === 'kyc')
    return user ? <VerificationRequiredModal user={user} opened onClose={onClose} /> : null;
  return (
    <Modal opened onClose={onClose} centered title={t('wallet.gate.otpTitle')}>
      <Stack data-testid={`withdraw-prompt-${prompt}`}>
        <Text size="sm">{t('wallet.gate.otpBody')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('wallet.gate.later')}
          </Button>
          <Button onClick={() => setEnabling(true)} data-testid="withdraw-enable-2fa">
            {t('wallet.gate.enable2fa')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Shows the withdraw form only to a user who may withdraw; otherwise says why: identity verification, 2FA, the
 * freeze while compliance reviews a sanctions screening hit (no form: nothing can be sent), or the 24-hour hold
 * after a password or 2FA change.
 */
export function WithdrawGate({
  permission,
  onPrompt,
  children,
}: {
  permission: WithdrawPermission | undefined;
  onPrompt: (prompt: WithdrawPrompt) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (!permission) return null;
  const needed = withdrawPrompt(permission);
  if (needed)
    return (
      <Alert color="yellow" data-testid="withdraw-blocked">
        <Stack gap="xs">
          <Text size="sm">{t(needed === 'kyc' ? 'wallet.gate.kycBody' : 'wallet.gate.otpBody')}</Text>
          <Group>
            <Button size="xs" onClick={() => onPrompt(needed)}>
              {t(needed === 'kyc' ? 'wallet.gate.toSettings' : 'wallet.gate.enable2fa')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  if (permission.reason === SANCTIONS_ERRORS.frozen)
    return (
      <Alert color="red" data-testid="withdraw-frozen">
        {t(SANCTIONS_ERRORS.frozen)}
      </Alert>
    );
  const holdUntil = permission.hold_until ? new Date(permission.hold_until) : undefined;
  return (
    <Stack>
      {holdUntil && holdUntil.getTime() > Date.now() && (
        <Alert color="orange" data-testid="withdraw-hold">
          {t('wallet.gate.hold', { until: longDate(holdUntil) })}
        </Alert>
      )}
      {children}
    </Stack>
  );
}
