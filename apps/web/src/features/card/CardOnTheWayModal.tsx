import { CARD_ON_THE_WAY_MS } from '@exchange/shared';
import { Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * After payment: "card on the way", closing by itself after 5 seconds (docs/cards.md#states, #constants), unless the user reaches for it
 * first: a key pressed in it or the pointer over its text keeps it open until closed (WCAG 2.2.1: a screen reader
 * or magnifier user may need longer to read it). `onReturnFocus` says where the focus goes on close, the Pay button
 * that led here being gone with the wizard.
 */
export function CardOnTheWayModal({
  opened,
  onClose,
  onReturnFocus,
}: {
  opened: boolean;
  onClose: () => void;
  onReturnFocus?: () => void;
}) {
  const { t } = useTranslation();
  const [held, setHeld] = useState(false);
  // The timer runs from the opening, whatever re-renders the page behind it.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!opened) return setHeld(false);
    if (held) return;
    const timer = window.setTimeout(() => close.current(), CARD_ON_THE_WAY_MS);
    return () => window.clearTimeout(timer);
  }, [opened, held]);
  const hold = () => setHeld(true);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      title={t('card.onTheWay.title')}
      returnFocus={!onReturnFocus}
      onExitTransitionEnd={onReturnFocus}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') hold();
      }}
    >
      <Stack align="center" data-testid="card-on-the-way" onPointerEnter={hold}>
        <ThemeIcon size={56} radius="xl" color="teal" variant="light" aria-hidden>
          <Text fz={28}>✈</Text>
        </ThemeIcon>
        <Text ta="center">{t('card.onTheWay.body')}</Text>
      </Stack>
    </Modal>
  );
}
