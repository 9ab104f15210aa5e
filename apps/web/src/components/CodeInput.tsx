import { TextInput } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';

interface CodeInputProps {
  label: ReactNode;
  /** Digits the code has (6 for TOTP and verification codes, 5 for the login code). */
  length: number;
  value: string;
  /** Called with the digits only, cut to `length`. */
  onChange: (value: string) => void;
  error?: ReactNode;
  testId?: string;
  /** Takes the focus when it appears (and when its dialog opens). */
  autoFocus?: boolean;
}

/** A one-time-code field: numeric keyboard, the browser's one-time-code autofill, digits only, fixed length. */
export function CodeInput({ label, length, value, onChange, error, testId, autoFocus }: CodeInputProps) {
  const ref = useRef<HTMLInputElement>(null);
  // Mantine gives `data-autofocus` the focus only as a dialog opens; a field that appears in a dialog already open
  // (the address book's pin after Add) takes it itself, or the focus is left on the body (WCAG 2.4.3).
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  return (
    <TextInput
      ref={ref}
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value.replace(/\D/g, '').slice(0, length))}
      error={error}
      data-autofocus={autoFocus || undefined}
      data-testid={testId}
    />
  );
}
