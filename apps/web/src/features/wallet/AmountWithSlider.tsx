import { Slider, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { acceptAmount, sliderAmount } from './format.ts';

const STEPS = [0, 25, 50, 75, 100];

interface Props {
  /** The amount as typed, a decimal string. */
  value: string;
  onChange: (amount: string) => void;
  /** The slider's position, 0-100 %. */
  percent: number;
  onPercent: (percent: number) => void;
  /** Available balance of the currency, a decimal string: what 100 % puts in the field. */
  available: string;
  precision: number;
  /** The ticker shown in the field, e.g. TRX. */
  unit: string;
  error?: string | undefined;
  description: string;
  testId: string;
}

/**
 * The amount of a withdrawal or a transfer (docs/wallet.md#validation): typed under the amount rule, or a 0-100 % share of the
 * available balance picked on the slider (exact, rounded down to the coin's precision).
 */
export function AmountWithSlider(props: Props) {
  const { t } = useTranslation();
  const { value, precision, unit } = props;
  return (
    <>
      <TextInput
        label={t('wallet.withdraw.amount')}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(e) => {
          const next = acceptAmount(e.currentTarget.value, precision, value);
          if (next !== undefined) props.onChange(next);
        }}
        rightSection={<Text size="xs">{unit}</Text>}
        rightSectionWidth={56}
        error={props.error}
        description={props.description}
        data-testid={props.testId}
      />
      <Slider
        value={props.percent}
        onChange={(percent) => {
          props.onPercent(percent);
          props.onChange(sliderAmount(props.available, precision, percent));
        }}
        step={25}
        marks={STEPS.map((s) => ({ value: s, label: `${s}%` }))}
        label={(v) => `${v}%`}
        thumbLabel={t('wallet.withdraw.percent')}
        mb="md"
      />
    </>
  );
}
