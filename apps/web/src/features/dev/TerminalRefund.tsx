import { Button, Group, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast.ts';
import { CARD_KEYS } from '../card/api.ts';
import { devRequest, failure } from './devApi.ts';

/**
 * The merchant's refund of an approved terminal purchase (`POST /api/v2/dev/card/refund`): part of it in EUR,
 * or, left empty, all of what is left of it.
 */
export function TerminalRefund({ tradeId }: { tradeId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [eur, setEur] = useState('');
  const [busy, setBusy] = useState(false);
  const [refunded, setRefunded] = useState<string>();

  const refund = async () => {
    setBusy(true);
    const result = await devRequest('card/refund', {
      trade_id: tradeId,
      ...(eur.trim() ? { eur: eur.trim() } : {}),
    });
    if (result && result.status >= 400) toast.error(failure(result.text));
    else if (result) {
      setRefunded((JSON.parse(result.text) as { usdt?: string }).usdt);
      await client.invalidateQueries({ queryKey: CARD_KEYS.all });
    }
    setBusy(false);
  };

  return (
    <Group align="flex-end">
      <TextInput
        label={t('dev.terminal.refundAmount')}
        placeholder={t('dev.terminal.refundAll')}
        value={eur}
        inputMode="decimal"
        onChange={(e) => setEur(e.currentTarget.value)}
        data-testid="terminal-refund-amount"
      />
      <Button variant="default" onClick={refund} loading={busy} data-testid="terminal-refund">
        {t('dev.terminal.refund')}
      </Button>
      {refunded !== undefined && (
        <Text size="sm" data-testid="terminal-refund-result">
          {t('dev.terminal.refunded', { amount: refunded })}
        </Text>
      )}
    </Group>
  );
}
