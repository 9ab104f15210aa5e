import type { CardHolderState } from '@exchange/shared';
import { Paper, Stepper } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/user.ts';
import { profileCountry } from './CardLanding.tsx';
import { FeeStep } from './FeeStep.tsx';
import { KycStep } from './KycStep.tsx';
import { ReviewProfileStep } from './ReviewProfileStep.tsx';
import { ReviewStep } from './ReviewStep.tsx';
import { holderStatus, STEP, WIZARD_STEPS, wizardStep } from './wizard.ts';

/**
 * The application wizard (docs/cards.md#screens, #states): Review profile, KYC verification, To be reviewed, Fee. The step follows
 * the holder's state; from a failed review the user steps back to the documents, which holds until the documents
 * are submitted again or the holder's state changes. A new step takes the wizard's content off the page: if it had
 * the focus (Next, Submit for review), the wizard gets it, so the keyboard goes on from there (WCAG 2.4.3).
 */
export function CardWizard({
  holder,
  user,
  onPaid,
}: {
  holder: CardHolderState | null;
  user: User;
  onPaid: () => void;
}) {
  const { t } = useTranslation();
  const computed = wizardStep(holder);
  // The step the user went back to holds while the holder's state is the one it was chosen in.
  const state = `${computed}:${holder ? holderStatus(holder) : 'none'}`;
  const [override, setOverride] = useState<{ from: string; step: number }>();
  const active = override && override.from === state ? override.step : computed;
  const panel = useRef<HTMLDivElement>(null);
  const shown = useRef(active);
  useEffect(() => {
    if (shown.current === active) return;
    shown.current = active;
    const focused = document.activeElement;
    if (!focused || focused === document.body) panel.current?.focus({ preventScroll: true });
  }, [active]);

  return (
    <Paper
      ref={panel}
      tabIndex={-1}
      withBorder
      p="lg"
      radius="md"
      style={{ outline: 'none' }}
      data-testid="card-wizard"
    >
      <Stepper active={active} allowNextStepsSelect={false} size="sm">
        {WIZARD_STEPS.map((name) => (
          <Stepper.Step
            key={name}
            label={t(`card.wizard.step.${name}`)}
            data-testid={`card-step-${name}`}
            aria-current={WIZARD_STEPS[active] === name ? 'step' : undefined}
          >
            {name === 'profile' && <ReviewProfileStep user={user} />}
            {name === 'kyc' && holder && (
              <KycStep holder={holder} onSubmitted={() => setOverride(undefined)} />
            )}
            {name === 'review' && holder && (
              <ReviewStep holder={holder} onBack={() => setOverride({ from: state, step: STEP.kyc })} />
            )}
            {name === 'fee' && <FeeStep country={profileCountry(user)} onPaid={onPaid} />}
          </Stepper.Step>
        ))}
      </Stepper>
    </Paper>
  );
}
