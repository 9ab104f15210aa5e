import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { CURRENT_USER_KEY } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';

/** Sets the phrase shown in every email we send, so that a fake email is easy to tell (beyond the spec). */
export function AntiPhishingModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [phrase, setPhrase] = useState('');
  const [busy, setBusy] = useState(false);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api('barong', '/resource/users/anti_phishing', {
        method: 'PUT',
        body: { phrase: phrase.trim() },
      });
      await client.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      toast.success(t('identity.antiPhishing.saved'));
      onClose();
    } catch (err) {
      toast.error(err instanceof ApiError ? t('identity.antiPhishing.invalid') : t('server.error'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} centered title={t('identity.antiPhishing.title')}>
      <form onSubmit={save} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('identity.antiPhishing.explain')}
          </Text>
          <TextInput
            label={t('identity.antiPhishing.label')}
            maxLength={40}
            value={phrase}
            onChange={(e) => setPhrase(e.currentTarget.value)}
            data-testid="anti-phishing-input"
          />
          <Button type="submit" loading={busy}>
            {t('identity.antiPhishing.save')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
