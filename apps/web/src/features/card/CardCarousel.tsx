import type { CardListItem } from '@exchange/shared';
import { ActionIcon, Group, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CardFace } from './CardFace.tsx';
import { cardStatusKey } from './format.ts';

/**
 * The user's cards, one shown at a time (docs/cards.md#screens): previous and next buttons, and a dot per card; choosing a
 * card shows its number, wallet and history.
 */
export function CardCarousel({
  cards,
  selected,
  onSelect,
}: {
  cards: CardListItem[];
  selected: number;
  onSelect: (index: number) => void;
}) {
  const { t } = useTranslation();
  const card = cards[selected];
  if (!card) return null;
  const many = cards.length > 1;
  const step = (by: number) => onSelect((selected + by + cards.length) % cards.length);
  return (
    <section
      aria-label={t('card.carousel.label')}
      aria-roledescription="carousel"
      data-testid="card-carousel"
    >
      <Group wrap="nowrap" gap="xs">
        {many && (
          <ActionIcon variant="subtle" onClick={() => step(-1)} aria-label={t('card.carousel.previous')}>
            ‹
          </ActionIcon>
        )}
        <div style={{ flex: 1 }} aria-live="polite" data-testid={`card-carousel-item-${selected}`}>
          <CardFace card={card} />
        </div>
        {many && (
          <ActionIcon variant="subtle" onClick={() => step(1)} aria-label={t('card.carousel.next')}>
            ›
          </ActionIcon>
        )}
      </Group>
      {many && (
        <Group justify="center" gap={6} mt="xs">
          {cards.map((c, i) => (
            <UnstyledButton
              key={c.card_number}
              onClick={() => onSelect(i)}
              aria-label={t('card.carousel.item', {
                number: c.card_number,
                status: t(cardStatusKey(c.status)),
              })}
              aria-pressed={i === selected}
              data-testid={`card-carousel-dot-${i}`}
              style={{
                width: 10,
                height: 10,
                borderRadius: 5,
                background: i === selected ? 'var(--mantine-color-blue-5)' : 'var(--mantine-color-dark-3)',
              }}
            />
          ))}
        </Group>
      )}
    </section>
  );
}
