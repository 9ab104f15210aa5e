import { LIMITS } from '@exchange/shared';
import { Anchor, Group, Paper, Select, Stack, Tabs, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { coinSelectIcons } from '../../components/CoinIcon.tsx';
import {
  type Currency,
  useCurrencies,
  useWalletBalances,
  useWalletHistory,
  useWithdrawPermission,
} from './api.ts';
import { DepositPanel } from './DepositPanel.tsx';
import { COIN_STORAGE_KEY, DEFAULT_COIN, networkName } from './format.ts';
import { HistoryTable } from './HistoryTable.tsx';
import { TransferPanel } from './TransferPanel.tsx';
import { WithdrawGate, type WithdrawPrompt, WithdrawPromptModal, withdrawPrompt } from './WithdrawGate.tsx';
import { WithdrawPanel } from './WithdrawPanel.tsx';

type Tab = 'deposit' | 'withdraw' | 'transfer';

/** The last 10 deposits or withdrawals (transfers included) of this coin, linked to the full history. */
function RecentHistory({ tab, coin }: { tab: Tab; coin: string }) {
  const { t } = useTranslation();
  const kind = tab === 'deposit' ? 'deposits' : 'withdraws';
  const { data } = useWalletHistory(kind, { currency: coin, page: 1, limit: LIMITS.tablePageLimit });
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t(tab === 'deposit' ? 'wallet.recent.deposits' : 'wallet.recent.withdraws')}</Title>
        <Anchor component={Link} to="/history/account" size="sm">
          {t('wallet.recent.all')}
        </Anchor>
      </Group>
      <HistoryTable kind={kind} items={data?.items ?? []} testId="recent-history" />
    </Paper>
  );
}

/** The stored coin (from the balance page) when it can be deposited, else trx, else the first one. */
function initialCoin(coins: Currency[]): string | undefined {
  const stored = localStorage.getItem(COIN_STORAGE_KEY);
  const ids = coins.map((c) => c.id);
  if (stored && ids.includes(stored)) return stored;
  return ids.includes(DEFAULT_COIN) ? DEFAULT_COIN : ids[0];
}

/**
 * `/deposit_withdraw` (docs/wallet.md#screens): coin and network, the Deposit and Withdraw tabs and the Transfer tab (to another
 * user by email, phone or address, FAQ), recent history.
 */
export function DepositWithdrawPage() {
  const { t } = useTranslation();
  const { data: currencies } = useCurrencies();
  const { data: balances } = useWalletBalances();
  const { data: permission } = useWithdrawPermission();
  const coins = (currencies ?? []).filter((c) => c.networks.length > 0);
  const [chosen, setChosen] = useState<string>();
  const [chosenNetwork, setChosenNetwork] = useState<string>();
  const [tab, setTab] = useState<Tab>('deposit');
  const [prompt, setPrompt] = useState<WithdrawPrompt>();
  const coinId = chosen ?? initialCoin(coins);
  const currency = coins.find((c) => c.id === coinId);
  const network = currency?.networks.find((n) => n.blockchain_key === chosenNetwork) ?? currency?.networks[0];
  const available = balances?.find((b) => b.currency === coinId)?.balance ?? '0';

  // Choosing Withdraw opens the prompt; if the permission was still loading at the click, it opens on arrival.
  const [promptPending, setPromptPending] = useState(false);
  const chooseTab = (value: string | null) => {
    // A transfer moves money out as a withdrawal does: the same prompt (verification, then 2FA).
    if (value === 'withdraw' || value === 'transfer') setPromptPending(true);
    if (value === 'deposit' || value === 'withdraw' || value === 'transfer') setTab(value);
  };
  useEffect(() => {
    if (!promptPending || !permission) return;
    setPromptPending(false);
    const needed = withdrawPrompt(permission);
    if (needed) setPrompt(needed);
  }, [promptPending, permission]);

  return (
    <Stack p="md">
      <Title order={2}>{t('wallet.dw.title')}</Title>
      <Paper withBorder p="md">
        <Group grow align="flex-start" mb="md">
          <Select
            label={t('wallet.dw.coin')}
            data={coins.map((c) => ({ value: c.id, label: `${c.id.toUpperCase()} — ${c.name}` }))}
            value={coinId ?? null}
            onChange={(v) => {
              if (!v) return;
              setChosen(v);
              setChosenNetwork(undefined);
              localStorage.setItem(COIN_STORAGE_KEY, v);
            }}
            allowDeselect={false}
            searchable
            {...coinSelectIcons(coinId, Object.fromEntries(coins.map((c) => [c.id, c.icon_url || null])))}
            data-testid="dw-coin"
          />
          <Select
            label={t('wallet.dw.network')}
            data={(currency?.networks ?? []).map((n) => ({
              value: n.blockchain_key,
              label: `${networkName(n.blockchain_key).toUpperCase()} (${n.protocol || n.blockchain_key})`,
            }))}
            value={network?.blockchain_key ?? null}
            onChange={(v) => v && setChosenNetwork(v)}
            allowDeselect={false}
            data-testid="dw-network"
          />
        </Group>
        <Tabs value={tab} onChange={chooseTab} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="deposit" data-testid="tab-deposit">
              {t('wallet.tab.deposit')}
            </Tabs.Tab>
            <Tabs.Tab value="withdraw" data-testid="tab-withdraw">
              {t('wallet.tab.withdraw')}
            </Tabs.Tab>
            <Tabs.Tab value="transfer" data-testid="tab-transfer">
              {t('wallet.tab.transfer')}
            </Tabs.Tab>
          </Tabs.List>
          {currency && network && (
            <>
              <Tabs.Panel value="deposit">
                <DepositPanel
                  key={`${currency.id}-${network.blockchain_key}`}
                  currency={currency}
                  network={network}
                />
              </Tabs.Panel>
              <Tabs.Panel value="withdraw">
                <WithdrawGate permission={permission} onPrompt={setPrompt}>
                  <WithdrawPanel
                    key={`${currency.id}-${network.blockchain_key}`}
                    currency={currency}
                    network={network}
                    available={available}
                  />
                </WithdrawGate>
              </Tabs.Panel>
              <Tabs.Panel value="transfer">
                <WithdrawGate permission={permission} onPrompt={setPrompt}>
                  <TransferPanel
                    key={`${currency.id}-${network.blockchain_key}`}
                    currency={currency}
                    network={network}
                    available={available}
                  />
                </WithdrawGate>
              </Tabs.Panel>
            </>
          )}
        </Tabs>
      </Paper>
      {coinId && <RecentHistory tab={tab} coin={coinId} />}
      {prompt && <WithdrawPromptModal prompt={prompt} onClose={() => setPrompt(undefined)} />}
    </Stack>
  );
}
