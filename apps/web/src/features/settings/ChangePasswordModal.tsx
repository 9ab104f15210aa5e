import { changePasswordSchema, ERRORS, fieldErrors } from '@exchange/shared';
import { Button, Modal, PasswordInput, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { forgetSession } from '../auth/api.ts';
import { codeText, errorCodes, errorText } from '../auth/components/errors.ts';

/** Each change-password field stays under 30 characters (docs/accounts.md#validation, #constants). */
const FIELD_MAX = 29;
const TOO_LONG = 'identity.password.too_long';

/** The shared change-password body plus the dialog's own limits: every field required and under 30. */
const changePasswordFormSchema = changePasswordSchema.superRefine((value, ctx) => {
  if (!value.confirm_password)
    ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: ERRORS.passwordRequired });
  for (const key of ['old_password', 'new_password', 'confirm_password'] as const) {
    if (value[key].length > FIELD_MAX) ctx.addIssue({ code: 'custom', path: [key], message: TOO_LONG });
  }
});

type Field = 'old_password' | 'new_password' | 'confirm_password';
const EMPTY: Record<Field, string> = { old_password: '', new_password: '', confirm_password: '' };

/** Where a server code belongs in the dialog. */
const FIELD_OF: Record<string, Field> = {
  [ERRORS.wrongOldPassword]: 'old_password',
  [ERRORS.samePassword]: 'new_password',
  [ERRORS.passwordWeak]: 'new_password',
  [ERRORS.passwordPattern]: 'new_password',
  [ERRORS.passwordMismatch]: 'confirm_password',
  [ERRORS.passwordChangeMismatch]: 'confirm_password',
};

/** Change password (docs/accounts.md#screens, #validation): old, new, confirm; success ends every session, then /login. */
export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const field = (key: Field, label: string, autoComplete: string) => (
    <PasswordInput
      label={label}
      autoComplete={autoComplete}
      maxLength={FIELD_MAX}
      value={values[key]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setValues((v) => ({ ...v, [key]: value }));
        setErrors(({ [key]: _d, ...rest }) => rest);
      }}
      error={errors[key] ? codeText(t, errors[key], 'changePassword') : undefined}
      visibilityToggleButtonProps={{ 'aria-label': t('identity.password.toggle') }}
    />
  );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = changePasswordFormSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setBusy(true);
    try {
      await api('barong', '/resource/users/password', { method: 'PUT', body: parsed.data });
      forgetSession(client);
      toast.success(t('identity.changePassword.success'));
      navigate('/login', { replace: true });
    } catch (err) {
      const placed: Record<string, string> = {};
      for (const code of errorCodes(err)) {
        const key = FIELD_OF[code];
        if (key && !placed[key]) placed[key] = code;
      }
      if (Object.keys(placed).length > 0) setErrors(placed);
      else toast.error(errorText(t, err, 'changePassword'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} centered title={t('identity.changePassword.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {field('old_password', t('identity.changePassword.old'), 'current-password')}
          {field('new_password', t('identity.changePassword.new'), 'new-password')}
          {field('confirm_password', t('identity.changePassword.confirm'), 'new-password')}
          <Button type="submit" loading={busy}>
            {t('identity.changePassword.submit')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
