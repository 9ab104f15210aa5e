import { STORAGE_KEYS } from '@exchange/shared';
import { Anchor, Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_CLEARED_EVENT } from '../api/storage.ts';

const accepted = () => {
  try {
    return localStorage.getItem(STORAGE_KEYS.privacyConsent) === 'accepted';
  } catch {
    return false;
  }
};

/**
 * The privacy consent pop-up (docs/accounts.md#public-pages): a visitor who has not agreed yet confirms having read
 * the privacy policy and agreeing to be bound by it. The answer is kept in local storage; account verification
 * keeps it, logout clears it (`api/storage.ts` says why), and the pop-up then asks whoever comes next.
 */
export function PrivacyConsent() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(() => !accepted());
  useEffect(() => {
    const reread = () => setOpen(!accepted());
    window.addEventListener(STORAGE_CLEARED_EVENT, reread);
    return () => window.removeEventListener(STORAGE_CLEARED_EVENT, reread);
  }, []);
  const accept = () => {
    localStorage.setItem(STORAGE_KEYS.privacyConsent, 'accepted');
    setOpen(false);
  };
  return (
    <Modal
      opened={open}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={t('consent.title')}
      centered
      data-testid="privacy-consent"
    >
      <Text size="sm" mb="md">
        {t('consent.before')}
        <Anchor href="/privacy" target="_blank" rel="noopener">
          {t('consent.link')}
        </Anchor>
        {t('consent.after')}
      </Text>
      <Group justify="flex-end">
        <Button onClick={accept} data-testid="privacy-consent-accept">
          {t('consent.accept')}
        </Button>
      </Group>
    </Modal>
  );
}
