import type { CardListItem } from '@exchange/shared';
import { Button, Menu } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardActionKind } from './api.ts';
import { CardActionModal } from './CardActionModal.tsx';
import { CardLimitsModal, type LimitsKind } from './CardLimitsModal.tsx';
import { CardPinModal } from './CardPinModal.tsx';

type MenuKind = CardActionKind | 'retrieval';
type Open = { kind: MenuKind } | { limits: LimitsKind } | undefined;

const ACTIONS: MenuKind[] = ['replace', 'retrieval', 'block', 'unblock'];

/**
 * The card actions menu (docs/cards.md#screens): Replace Card, Password Retrieval, Block/Report Lost Card, Unblock Card, Card
 * Limits, ATM Limits. Each card dialog starts with `shown`, the card on screen.
 */
export function CardActionsMenu({
  cards,
  shown,
}: {
  cards: CardListItem[];
  shown: CardListItem | undefined;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Open>();
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="light" data-testid="card-actions">
            {t('card.actions.menu')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {ACTIONS.map((kind) => (
            <Menu.Item key={kind} onClick={() => setOpen({ kind })} data-testid={`card-action-${kind}`}>
              {t(`card.actions.${kind}`)}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item onClick={() => setOpen({ limits: 'card' })} data-testid="card-action-limits">
            {t('card.actions.limits')}
          </Menu.Item>
          <Menu.Item onClick={() => setOpen({ limits: 'atm' })} data-testid="card-action-atm">
            {t('card.actions.atm')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {open && 'kind' in open && open.kind === 'retrieval' && (
        <CardPinModal cards={cards} shown={shown} onClose={() => setOpen(undefined)} />
      )}
      {open && 'kind' in open && open.kind !== 'retrieval' && (
        <CardActionModal kind={open.kind} cards={cards} shown={shown} onClose={() => setOpen(undefined)} />
      )}
      {open && 'limits' in open && <CardLimitsModal kind={open.limits} onClose={() => setOpen(undefined)} />}
    </>
  );
}
