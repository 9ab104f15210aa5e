import type { CardListItem } from '@exchange/shared';
import { Paper, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CardChargesTable } from './CardChargesTable.tsx';
import { TopupHistoryTable } from './TopupHistoryTable.tsx';

/** The chosen card's history (docs/cards.md#screens): Top-up history and Card charges. */
export function CardHistoryTabs({ card }: { card: CardListItem }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md">
      <Tabs defaultValue="topups" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="topups" data-testid="card-tab-topups">
            {t('card.tabs.topups')}
          </Tabs.Tab>
          <Tabs.Tab value="charges" data-testid="card-tab-charges">
            {t('card.tabs.charges')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="topups" pt="sm" data-testid="card-topups">
          <TopupHistoryTable cardNumber={card.card_number} />
        </Tabs.Panel>
        <Tabs.Panel value="charges" pt="sm">
          <CardChargesTable cardNumber={card.card_number} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
