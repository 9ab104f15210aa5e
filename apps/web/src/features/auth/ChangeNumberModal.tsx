import { fieldErrors, fullPhoneNumber, REGISTRATION_COUNTRIES } from '@exchange/shared';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { Captcha, useCaptchaField } from '../../components/Captcha.tsx';
import { codeText, errorText } from './components/errors.ts';
import { changeNumberSchema, digitsOnly } from './schemas.ts';

const CODE_OPTIONS = REGISTRATION_COUNTRIES.map((c) => ({ value: c.code, label: `+${c.dial} ${c.name}` }));

interface Props {
  email: string;
  /** From the registration (or pending login) answer: the server changes the number only with it. */
  registrationToken: string;
  onClose: () => void;
  /** Called with the new full number once the server accepted it. */
  onChanged: (phone: string) => void;
}

/**
 * Change number of a registration still being verified (docs/accounts.md#screens): dial code, number (max 15),
 * Update. The server's answer, success or error, is shown as a toast.
 */
export function ChangeNumberModal({ email, registrationToken, onClose, onChanged }: Props) {
  const { t } = useTranslation();
  const [country, setCountry] = useState<string | null>(null);
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const captcha = useCaptchaField();
  const error = (field: string) => (errors[field] ? codeText(t, errors[field]) : undefined);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = changeNumberSchema.safeParse({ country: country ?? '', phone_number: phone });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    if (!captcha.check()) return;
    const dial = REGISTRATION_COUNTRIES.find((c) => c.code === country)?.dial ?? '';
    setBusy(true);
    try {
      const changed = await api<{ phone_number: string }>('barong', '/identity/users/edit/phone_number', {
        method: 'POST',
        body: {
          email,
          country_code: dial,
          phone_number: phone,
          registration_token: registrationToken,
          captcha_response: captcha.response,
        },
      });
      toast.success(t('identity.changeNumber.success'));
      onChanged(changed.phone_number ?? fullPhoneNumber(dial, phone));
    } catch (err) {
      if (!captcha.failed(err)) toast.error(errorText(t, err) || t('server.error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} centered title={t('identity.changeNumber.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group align="flex-start" grow>
            <Select
              label={t('identity.changeNumber.countryCode')}
              data={CODE_OPTIONS}
              value={country}
              onChange={(value) => {
                setCountry(value);
                setErrors(({ country: _d, ...rest }) => rest);
              }}
              allowDeselect={false}
              error={error('country')}
            />
            <TextInput
              label={t('identity.changeNumber.phone')}
              inputMode="numeric"
              value={phone}
              onChange={(e) => {
                setPhone(digitsOnly(e.currentTarget.value, 15));
                setErrors(({ phone_number: _d, ...rest }) => rest);
              }}
              error={error('phone_number')}
            />
          </Group>
          <Captcha {...captcha.props} />
          <Button type="submit" loading={busy}>
            {t('identity.changeNumber.submit')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
