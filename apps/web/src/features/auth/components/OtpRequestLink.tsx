import { LIMITS } from '@exchange/shared';
import { Anchor, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../app/toast.ts';
import { errorText, isResendLimit } from './errors.ts';
import { useCountdown } from './useCountdown.ts';

interface Props {
  /** Sends the code; throws on failure. */
  onRequest: () => Promise<void>;
  /** Toast shown when the code was sent. */
  successMessage: string;
  /** Link text; "Get OTP" by default. */
  label?: string;
  /** Starts with the countdown running (a code was just sent). */
  startRunning?: boolean;
  testId?: string;
}

/**
 * "Get OTP" link replaced by a 60 s countdown after a request (docs/accounts.md#states). A resend-limit refusal
 * disables the link for 5 s; any other error still starts the countdown.
 */
export function OtpRequestLink({ onRequest, successMessage, label, startRunning, testId }: Props) {
  const { t } = useTranslation();
  const countdown = useCountdown();
  const [busy, setBusy] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const blockTimer = useRef<number | undefined>(undefined);
  /** The countdown that replaces the link takes the keyboard focus the link had (e.g. inside a dialog). */
  const countdownRef = useRef<HTMLParagraphElement>(null);
  const refocus = useRef(false);
  const { start } = countdown;

  useEffect(() => {
    if (!countdown.running || !refocus.current) return;
    refocus.current = false;
    countdownRef.current?.focus();
  }, [countdown.running]);

  useEffect(() => {
    if (startRunning) start(LIMITS.otpResendCountdownSeconds);
  }, [startRunning, start]);
  useEffect(() => () => window.clearTimeout(blockTimer.current), []);

  const request = async (event: React.MouseEvent<HTMLButtonElement>) => {
    if (busy || blocked || countdown.running) return;
    refocus.current = document.activeElement === event.currentTarget;
    setBusy(true);
    try {
      await onRequest();
      toast.success(successMessage);
      start(LIMITS.otpResendCountdownSeconds);
    } catch (err) {
      const message = errorText(t, err);
      if (message) toast.error(message);
      if (isResendLimit(err)) {
        setBlocked(true);
        blockTimer.current = window.setTimeout(
          () => setBlocked(false),
          LIMITS.resendLimitDisableSeconds * 1000,
        );
      } else {
        start(LIMITS.otpResendCountdownSeconds);
      }
    } finally {
      setBusy(false);
    }
  };

  if (countdown.running) {
    return (
      <Text
        ref={countdownRef}
        tabIndex={-1}
        size="sm"
        c="dimmed"
        data-testid={testId ? `${testId}-countdown` : undefined}
      >
        {t('identity.otp.countdown', { seconds: countdown.seconds })}
      </Text>
    );
  }
  const disabled = busy || blocked;
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      onClick={request}
      disabled={disabled}
      aria-disabled={disabled}
      c={disabled ? 'dimmed' : undefined}
      style={disabled ? { cursor: 'not-allowed' } : undefined}
      data-testid={testId}
    >
      {label ?? t('identity.otp.get')}
    </Anchor>
  );
}
