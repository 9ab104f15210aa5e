import { CODE_LENGTH, fieldErrors } from '@exchange/shared';
import { Alert, Button, type ButtonProps, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { codeText, errorText } from '../features/auth/components/errors.ts';
import { CodeInput } from './CodeInput.tsx';

/** What a form's zod `safeParse` answers: the body to send, or the issues. */
export type CodeCheck<T> = { success: true; data: T } | { success: false; error: z.ZodError };

/** The message of a field's failed check, if it has one. */
export type ErrorOf = (field: string) => string | undefined;

/** The authenticator-code field of a {@link CodeConfirmModal}. */
export interface CodeField {
  /** The key the form's schema reports the code's errors under (`totp_code`, `otp`, `otp_code`). */
  field: string;
  label: string;
  testId: string;
  /** Text above the field, e.g. where the code comes from. */
  hint?: ReactNode;
  /** Takes the focus as the dialog opens; off where the caller's fields come first (default on). */
  autoFocus?: boolean;
}

export interface CodeConfirmModalProps<T> {
  title: string;
  /**
   * Fields above the code, owned by the caller (an API key's allowed IPs, a password). A function receives the
   * message of each field's failed check.
   */
  children?: ReactNode | ((errorOf: ErrorOf) => ReactNode);
  /** The code field; absent when the account has no two-factor to ask for (closing an account without it). */
  code?: CodeField;
  /** Checks the whole form with the typed code (usually a shared schema's `safeParse`). */
  check: (code: string) => CodeCheck<T>;
  /** Performs the change with the checked form; throws the API error on failure. */
  onSubmit: (data: T) => Promise<void>;
  onClose: () => void;
  /** The translation scope that words this form's messages first (see `codeText`). */
  scope?: string;
  /**
   * Where a refused call's message goes: under the code field (the default, where there is one), or in an alert
   * above the button (a refusal about another field, such as a wrong password, belongs to the whole form).
   */
  refusalIn?: 'code' | 'alert';
  submit: { label: string; testId?: string; color?: ButtonProps['color'] };
  /** The test id of the form's alert. */
  alertTestId?: string;
}

/**
 * The dialog that confirms a change with the authenticator code (docs/accounts.md#screens): API-key and IP
 * whitelist changes, a payout file's execution, an account's closure. One form for all of them, so that each
 * labels its field, takes the focus and words its errors (i18n, docs/accounts.md#errors) the same way.
 */
export function CodeConfirmModal<T>({
  title,
  children,
  code,
  check,
  onSubmit,
  onClose,
  scope,
  refusalIn = 'code',
  submit,
  alertTestId,
}: CodeConfirmModalProps<T>) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  /** The codes of the fields' failed checks, by field. */
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** The message of a refused call (already worded, unlike a field's code). */
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);
  const errorOf: ErrorOf = (field) => (errors[field] ? codeText(t, errors[field], scope) : undefined);
  const refusalUnderCode = refusalIn === 'code' && code !== undefined;

  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = check(value);
    setRefusal(undefined);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSubmit(parsed.data);
    } catch (err) {
      setRefusal(errorText(t, err, scope) || t('server.error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} centered title={title}>
      <form onSubmit={send} noValidate>
        <Stack>
          {typeof children === 'function' ? children(errorOf) : children}
          {code?.hint && (
            <Text size="sm" c="dimmed">
              {code.hint}
            </Text>
          )}
          {code && (
            <CodeInput
              label={code.label}
              length={CODE_LENGTH.totp}
              value={value}
              onChange={(next) => {
                setValue(next);
                // A new code answers the code's complaint (and a refusal shown under it), not the other fields'.
                setErrors(({ [code.field]: _, ...rest }) => rest);
                if (refusalUnderCode) setRefusal(undefined);
              }}
              error={errorOf(code.field) ?? (refusalUnderCode ? refusal : undefined)}
              autoFocus={code.autoFocus ?? true}
              testId={code.testId}
            />
          )}
          {refusal && !refusalUnderCode && (
            <Alert color="red" role="alert" data-testid={alertTestId}>
              {refusal}
            </Alert>
          )}
          <Button type="submit" color={submit.color} loading={busy} data-testid={submit.testId}>
            {submit.label}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
