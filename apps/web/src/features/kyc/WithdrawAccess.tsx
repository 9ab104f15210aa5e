import { Alert, Button, Container, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Placeholder } from '../../components/Placeholder.tsx';
import { useVerificationGate } from './VerificationRequiredModal.tsx';

/**
 * Deposit/Withdraw until the wallet screens land: choosing Withdraw below level 3 opens the
 * verification-required prompt (trading spec §2); a verified user is told withdrawals are available.
 */
export function WithdrawAccess() {
  const { t } = useTranslation();
  const gate = useVerificationGate();
  const [allowed, setAllowed] = useState(false);
  return (
    <Container size="sm" py="xl">
      <Placeholder name="Deposit/Withdraw" />
      <Stack px="md">
        <Button
          w="fit-content"
          variant="light"
          data-testid="withdraw-tab"
          onClick={() => setAllowed(gate.allow())}
        >
          {t('kyc.withdraw.tab')}
        </Button>
        {allowed && (
          <Alert color="teal" data-testid="withdraw-allowed">
            {t('kyc.withdraw.allowed')}
          </Alert>
        )}
      </Stack>
      {gate.modal}
    </Container>
  );
}
