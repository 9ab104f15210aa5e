import { type CardListItem, cardPinRevealSchema, fieldErrors } from '@exchange/shared';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../api/user.ts';
import { CodeInput } from '../../components/CodeInput.tsx';
import { TwoFactorModal } from '../settings/TwoFactorModal.tsx';
import { cardCalls } from './api.ts';
import { cardCodeText, cardErrorCode, cardStatusKey, preselectedCard } from './format.ts';

/** A revealed PIN and when it leaves the screen. */
interface Shown {
  pin: string;
  until: number;
}

/** Seconds left until `until`, never below 0. */
const secondsLeft = (until: number) => Math.max(0, Math.ceil((until - Date.now()) / 1000));

/** The PIN on screen with its countdown; calls `onExpired` when its time is up. */
function PinDisplay({ shown, onExpired }: { shown: Shown; onExpired: () => void }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(() => secondsLeft(shown.until));
  const expired = useRef(onExpired);
  expired.current = onExpired;
  useEffect(() => {
    const timer = setInterval(() => {
      const now = secondsLeft(shown.until);
      setLeft(now);
      if (now === 0) expired.current();
    }, 1000);
    return () => clearInterval(timer);
  }, [shown.until]);
  return (
    <Stack align="center" gap="xs">
      <Text ff="monospace" fz={40} fw={700} lts={8} data-testid="card-pin" aria-live="polite">
        {shown.pin}
      </Text>
      <Text size="sm" c="dimmed" data-testid="card-pin-countdown">
        {t('card.pin.hiddenIn', { seconds: left })}
      </Text>
    </Stack>
  );
}

/**
 * Password Retrieval (docs/cards.md#screens), as issuers do it: choose the card (the one on screen is chosen already), type a fresh authenticator code, and the PIN
 * shows here for the seconds the answer's `expires_in` gives (CARD_PIN_SHOW_SECONDS), then is gone: it lives in
 * this dialog's state only, is never cached, sent or stored. Without two-factor the dialog offers to turn it on.
 */
export function CardPinModal({
  cards,
  shown: onScreen,
  onClose,
}: {
  cards: CardListItem[];
  /** The card on screen (the carousel's), chosen when the dialog opens. */
  shown: CardListItem | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const [cardNumber, setCardNumber] = useState(() => preselectedCard(cards, onScreen));
  const [otp, setOtp] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'card_number' | 'otp' | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  const [enabling, setEnabling] = useState(false);
  const [shown, setShown] = useState<Shown>();

  if (enabling) return <TwoFactorModal mode="enable" onClose={() => setEnabling(false)} />;

  const reveal = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = cardPinRevealSchema.safeParse({
      card_number: cardNumber,
      type: 'Password Retreival',
      otp,
    });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const answer = await cardCalls.revealPin(parsed.data);
      setOtp('');
      setShown({ pin: answer.pin, until: Date.now() + answer.expires_in * 1000 });
    } catch (err) {
      const code = cardErrorCode(err);
      setErrors(code.startsWith('resource.otp.') ? { otp: code } : { form: code });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} centered title={t('card.actions.retrieval')}>
      {shown ? (
        <Stack data-testid="card-action-modal-retrieval">
          <PinDisplay shown={shown} onExpired={onClose} />
          <Text size="sm">{t('card.pin.warning')}</Text>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="card-pin-hide">
              {t('card.pin.hide')}
            </Button>
          </Group>
        </Stack>
      ) : !user?.otp ? (
        <Stack data-testid="card-action-modal-retrieval">
          <Alert color="yellow" data-testid="card-pin-needs-2fa">
            {t('card.pin.needs2fa')}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('card.actions.cancel')}
            </Button>
            <Button onClick={() => setEnabling(true)} data-testid="card-pin-enable-2fa">
              {t('card.pin.enable2fa')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={reveal} noValidate data-testid="card-action-modal-retrieval">
          <Stack>
            <NativeSelect
              label={t('card.actions.card')}
              value={cardNumber}
              onChange={(e) => {
                setCardNumber(e.currentTarget.value);
                setErrors({});
              }}
              data={[
                { value: '', label: t('card.actions.selectCard') },
                ...cards.map((c) => ({
                  value: c.card_number,
                  label: `${c.card_number} · ${t(cardStatusKey(c.status))}`,
                })),
              ]}
              error={errors.card_number && cardCodeText(t, errors.card_number)}
              data-testid="card-action-card"
            />
            <Text size="sm">{t('card.actions.retrieval.body')}</Text>
            <CodeInput
              label={t('card.pin.otp')}
              length={6}
              value={otp}
              onChange={(v) => {
                setOtp(v);
                setErrors({});
              }}
              error={errors.otp && cardCodeText(t, errors.otp)}
              testId="card-pin-otp"
            />
            {errors.form && (
              <Text c="red" size="sm" role="alert">
                {cardCodeText(t, errors.form)}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('card.actions.cancel')}
              </Button>
              <Button type="submit" loading={busy} data-testid="card-action-confirm">
                {t('card.pin.show')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
