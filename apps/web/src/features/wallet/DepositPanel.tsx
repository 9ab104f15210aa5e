import {
  Alert,
  Button,
  Center,
  CopyButton,
  Group,
  Image,
  List,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Currency, type Network, useDepositAddress } from './api.ts';
import { networkName } from './format.ts';

/** Blockchain confirmations before a deposit is credited (docs/wallet.md#constants). */
const CONFIRMATIONS = 30;

/** The address as a QR code, drawn by the `qrcode` package loaded only when asked for. */
function QrModal({ address, onClose }: { address: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qr) => qr.toDataURL(address, { margin: 1, width: 240 }))
      .then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [address]);
  return (
    <Modal opened onClose={onClose} centered title={t('wallet.deposit.qrTitle')}>
      <Center>
        {src ? (
          <Image src={src} alt={t('wallet.deposit.qrAlt')} w={240} h={240} data-testid="deposit-qr" />
        ) : (
          <Loader />
        )}
      </Center>
      <Text size="xs" ta="center" mt="sm" style={{ wordBreak: 'break-all' }}>
        {address}
      </Text>
    </Modal>
  );
}

/** Deposit tab (docs/wallet.md#screens): the address with copy and QR, and the important notes. */
export function DepositPanel({ currency, network }: { currency: Currency; network: Network }) {
  const { t } = useTranslation();
  const [qr, setQr] = useState(false);
  const { data, isPending, isError } = useDepositAddress(currency.id, network.blockchain_key);
  const address = data?.address ?? undefined;
  const unit = currency.id.toUpperCase();

  return (
    <Stack>
      {!network.deposit_enabled && <Alert color="yellow">{t('wallet.deposit.disabled')}</Alert>}
      <Paper withBorder p="md">
        <Text size="sm" c="dimmed" mb={4}>
          {t('wallet.deposit.address', { coin: unit, network: networkName(network.blockchain_key) })}
        </Text>
        {address ? (
          <Group justify="space-between" wrap="nowrap">
            <Text ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="deposit-address">
              {address}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <CopyButton value={address}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                    {copied ? t('wallet.deposit.copied') : t('wallet.deposit.copy')}
                  </Button>
                )}
              </CopyButton>
              <Button size="xs" variant="default" onClick={() => setQr(true)} data-testid="deposit-qr-open">
                {t('wallet.deposit.qr')}
              </Button>
            </Group>
          </Group>
        ) : isPending || (data && !data.address) ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{t('wallet.deposit.generating')}</Text>
          </Group>
        ) : (
          isError && <Text c="red">{t('wallet.deposit.addressFailed')}</Text>
        )}
      </Paper>
      <Paper withBorder p="md">
        <Title order={5} mb="xs">
          {t('wallet.deposit.notesTitle')}
        </Title>
        <List size="sm" spacing={4}>
          <List.Item>{t('wallet.deposit.noteConfirmations', { n: CONFIRMATIONS })}</List.Item>
          <List.Item>{t('wallet.deposit.noteNewAddress')}</List.Item>
          <List.Item>
            {t('wallet.deposit.noteMinimum', { min: network.min_deposit_amount, coin: unit })}
          </List.Item>
          <List.Item>
            {t('wallet.deposit.noteNetwork', { coin: unit, network: networkName(network.blockchain_key) })}
          </List.Item>
        </List>
      </Paper>
      {qr && address && <QrModal address={address} onClose={() => setQr(false)} />}
    </Stack>
  );
}
