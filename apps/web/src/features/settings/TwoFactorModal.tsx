import { CODE_LENGTH, ERRORS, fieldErrors, otpCodeSchema } from '@exchange/shared';
import { Button, Center, Code, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { CURRENT_USER_KEY } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { CodeInput } from '../../components/CodeInput.tsx';
import { codeText, errorCodes, errorText } from '../auth/components/errors.ts';
import { barcodeSrc } from './barcode.ts';

interface QrCode {
  data: { barcode: string; url: string };
}

/** The base32 secret in an otpauth:// URL. */
export function secretOf(url: string): string {
  const match = /[?&]secret=([^&]+)/i.exec(url);
  return match?.[1] ? decodeURIComponent(match[1]) : '';
}

/**
 * Authenticator-app two-factor (docs/accounts.md#screens, #states): enabling shows the QR code and secret and takes a
 * 6-digit code ("Code is required."); disabling takes a code only.
 */
export function TwoFactorModal({ mode, onClose }: { mode: 'enable' | 'disable'; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const scope = mode === 'enable' ? 'otpEnable' : 'otpDisable';
  const qr = useQuery({
    queryKey: ['otp-qrcode'],
    queryFn: () => api<QrCode>('barong', '/resource/otp/generate_qrcode', { method: 'POST' }),
    enabled: mode === 'enable',
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = otpCodeSchema.safeParse({ code });
    if (!parsed.success) {
      const first = fieldErrors(parsed.error).code;
      setError(first ? codeText(t, first, scope) : undefined);
      return;
    }
    setBusy(true);
    try {
      await api('barong', `/resource/otp/${mode}`, { method: 'POST', body: parsed.data });
      await client.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      toast.success(t(mode === 'enable' ? 'identity.otp.enabled' : 'identity.otp.disabled'));
      onClose();
    } catch (err) {
      const codes = errorCodes(err);
      const codeRefused = [ERRORS.otpInvalid, ERRORS.totpUsed, ERRORS.totpInvalid, ERRORS.totpRequired];
      if (codeRefused.some((c) => codes.includes(c))) setError(errorText(t, err, scope));
      else toast.error(errorText(t, err, scope));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      centered
      title={t(mode === 'enable' ? 'identity.otp.enableTitle' : 'identity.otp.disableTitle')}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {mode === 'enable' && (
            <>
              <Text size="sm">{t('identity.otp.scan')}</Text>
              {qr.isPending && (
                <Center>
                  <Loader />
                </Center>
              )}
              {qr.isError && (
                <Text c="red" size="sm">
                  {errorText(t, qr.error)}
                </Text>
              )}
              {qr.data && (
                <>
                  <Center>
                    <Image
                      src={barcodeSrc(qr.data.data.barcode)}
                      alt={t('identity.otp.qrAlt')}
                      w={200}
                      h={200}
                    />
                  </Center>
                  <Text size="sm">{t('identity.otp.secret')}</Text>
                  <Code block data-testid="otp-secret">
                    {secretOf(qr.data.data.url)}
                  </Code>
                </>
              )}
            </>
          )}
          <CodeInput
            label={t('identity.otp.code')}
            length={CODE_LENGTH.totp}
            value={code}
            onChange={(value) => {
              setCode(value);
              setError(undefined);
            }}
            error={error}
            testId="otp-code"
          />
          <Button type="submit" loading={busy} color={mode === 'disable' ? 'red' : undefined}>
            {t(mode === 'enable' ? 'identity.otp.enable' : 'identity.otp.disable')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
