import { CODE_LENGTH, ERRORS, fieldErrors, totpField } from '@exchange/shared';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CodeInput } from '../../components/CodeInput.tsx';
import { codeText, errorCodes, errorText } from '../auth/components/errors.ts';

const schema = z.object({ totp_code: totpField });

interface Props {
  title: string;
  /** Performs the change with the code; throws the API error on failure. */
  onSubmit: (totpCode: string) => Promise<void>;
  onClose: () => void;
  /** Fields shown above the code (an API key's allowed IPs), owned by the caller. */
  children?: ReactNode;
}

/**
 * The two-factor code asked before every API-token change (docs/accounts.md#screens, #permissions), and before every change of the
 * login IP whitelist (issue 31).
 */
export function TotpModal({ title, onSubmit, onClose, children }: Props) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = schema.safeParse({ totp_code: code });
    if (!parsed.success) {
      const first = fieldErrors(parsed.error).totp_code;
      setError(first ? codeText(t, first, 'apiKey') : undefined);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(parsed.data.totp_code);
    } catch (err) {
      const codes = errorCodes(err);
      const codeRefused = [ERRORS.apiKeyInvalidTotp, ERRORS.apiKeyMissingTotp, ERRORS.totpInvalid];
      if (codeRefused.some((c) => codes.includes(c))) setError(errorText(t, err, 'apiKey'));
      else setError(errorText(t, err, 'apiKey') || t('server.error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} centered title={title}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {children}
          <Text size="sm" c="dimmed">
            {t('identity.apiKeys.totpHint')}
          </Text>
          <CodeInput
            label={t('identity.apiKeys.totpLabel')}
            length={CODE_LENGTH.totp}
            value={code}
            onChange={(value) => {
              setCode(value);
              setError(undefined);
            }}
            error={error}
            autoFocus
            testId="api-key-totp"
          />
          <Button type="submit" loading={busy}>
            {t('identity.apiKeys.confirm')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
