import type { SolvencyProofEntity } from '@exchange/shared';
import { Alert, Badge, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { errorText } from '../auth/components/errors.ts';
import { checkProof } from './solvency-proof.ts';

interface Checked {
  proof: SolvencyProofEntity;
  leaf: boolean;
  root: boolean;
}

/**
 * "Verify my balance": fetches the signed-in customer's proof of liabilities and checks it here, in the browser
 * (solvency-proof.ts), against the published root: the balances shown were in the tree the exchange published.
 */
export function SolvencyProofPanel() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [error, setError] = useState<string | null>(null);
  const verify = async () => {
    setBusy(true);
    setError(null);
    try {
      const proof = await api<SolvencyProofEntity>('peatio', '/account/solvency/proof');
      setChecked({ proof, ...(await checkProof(proof)) });
    } catch (err) {
      setChecked(null);
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  const ok = checked?.leaf === true && checked.root;
  return (
    <Paper withBorder p="md" data-testid="solvency-proof">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={5}>{t('wallet.solvency.title')}</Title>
          <Button size="xs" variant="light" loading={busy} onClick={verify}>
            {t('wallet.solvency.verify')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('wallet.solvency.body')}
        </Text>
        {error && <Alert color="gray">{error}</Alert>}
        {checked && (
          <Stack gap="xs">
            <Group>
              <Badge color={ok ? 'teal' : 'red'} data-verified={ok}>
                {t(ok ? 'wallet.solvency.verified' : 'wallet.solvency.failed')}
              </Badge>
              <Text size="sm">
                {t('wallet.solvency.snapshot', {
                  time: new Date(checked.proof.created_at).toLocaleString(),
                  count: checked.proof.leaf_count,
                })}
              </Text>
            </Group>
            <Text size="sm">
              {Object.entries(checked.proof.balances)
                .map(([currency, amount]) => `${amount} ${currency.toUpperCase()}`)
                .join(' · ') || t('wallet.solvency.nothing')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('wallet.solvency.root')}
            </Text>
            <Code block>{checked.proof.root}</Code>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
