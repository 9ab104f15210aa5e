import { Center, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Tracks the browser's online state. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/** Replaces the whole app while the browser is offline. */
export function OfflineScreen() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" p="xl" data-testid="offline-screen">
      <Stack align="center" gap="sm">
        <Title order={2}>📡</Title>
        <Text size="lg" ta="center">
          {t('offline.message')}
        </Text>
      </Stack>
    </Center>
  );
}
