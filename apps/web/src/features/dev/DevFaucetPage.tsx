import {
  Alert,
  Button,
  Container,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { useCurrencies, useDepositAddress } from '../wallet/api.ts';
import { devRequest, failure } from './devApi.ts';

/** The simulated chains of development (DESIGN.md chain port). */
const NETWORKS = ['tron-sim', 'btc-sim', 'eth-devnet'];
/** The coin each chain offers first. */
const NATIVE: Record<string, string> = { 'tron-sim': 'trx', 'btc-sim': 'btc', 'eth-devnet': 'eth' };

/** Your own deposit address on the chosen network, when signed in. */
function useOwnAddress(currency: string | undefined, network: string) {
  const { data: user } = useCurrentUser();
  const signedIn = isLoggedIn(user);
  const { data } = useDepositAddress(signedIn ? currency : undefined, network);
  return data?.address ?? undefined;
}

/**
 * Developer faucet (DEV_TOOLS only): sends test coins from a simulated chain to an address and mines blocks, so
 * deposits can be watched going from Pending to Completed.
 */
export function DevFaucetPage() {
  const { t } = useTranslation();
  const { data: currencies } = useCurrencies();
  const [network, setNetwork] = useState(NETWORKS[0] ?? '');
  const coins = (currencies ?? []).filter((c) => c.networks.some((n) => n.blockchain_key === network));
  const [currency, setCurrency] = useState<string>();
  const native = coins.find((c) => c.id === NATIVE[network]) ?? coins[0];
  const coin = coins.some((c) => c.id === currency) ? currency : native?.id;
  const own = useOwnAddress(coin, network);
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('100');
  const [blocks, setBlocks] = useState<number | string>(30);
  const [off, setOff] = useState(false);
  const [busy, setBusy] = useState<'send' | 'mine'>();

  useEffect(() => {
    if (own) setAddress(own);
  }, [own]);

  const run = async (kind: 'send' | 'mine') => {
    setBusy(kind);
    const result =
      kind === 'send'
        ? await devRequest('faucet', {
            blockchain_key: network,
            currency: coin,
            address: address.trim(),
            amount,
          })
        : await devRequest('mine', { blockchain_key: network, blocks: Number(blocks) });
    if (result?.off) setOff(true);
    else if (result && result.status >= 400) toast.error(failure(result.text));
    else if (result) toast.success(t(kind === 'send' ? 'dev.faucet.sent' : 'dev.faucet.mined'));
    setBusy(undefined);
  };

  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={2}>{t('dev.faucet.title')}</Title>
        <Text c="dimmed">{t('dev.faucet.intro')}</Text>
        {off && <Alert color="yellow">{t('dev.inbox.off')}</Alert>}
        <Paper withBorder p="md">
          <Stack>
            <Group grow>
              <Select
                label={t('dev.faucet.network')}
                data={NETWORKS}
                value={network}
                onChange={(v) => v && setNetwork(v)}
                allowDeselect={false}
                data-testid="faucet-network"
              />
              <Select
                label={t('dev.faucet.currency')}
                data={coins.map((c) => ({ value: c.id, label: c.id.toUpperCase() }))}
                value={coin ?? null}
                onChange={(v) => v && setCurrency(v)}
                allowDeselect={false}
                data-testid="faucet-currency"
              />
            </Group>
            <TextInput
              label={t('dev.faucet.address')}
              value={address}
              onChange={(e) => setAddress(e.currentTarget.value)}
              data-testid="faucet-address"
            />
            <TextInput
              label={t('dev.faucet.amount')}
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              data-testid="faucet-amount"
            />
            <Button onClick={() => run('send')} loading={busy === 'send'} data-testid="faucet-send">
              {t('dev.faucet.send')}
            </Button>
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Group align="flex-end">
            <NumberInput
              label={t('dev.faucet.blocks')}
              value={blocks}
              onChange={setBlocks}
              min={1}
              max={1000}
              allowDecimal={false}
              data-testid="faucet-blocks"
            />
            <Button onClick={() => run('mine')} loading={busy === 'mine'} data-testid="faucet-mine">
              {t('dev.faucet.mine')}
            </Button>
          </Group>
        </Paper>
      </Stack>
    </Container>
  );
}
