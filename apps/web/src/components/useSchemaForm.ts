import { fieldErrors } from '@exchange/shared';
import { useState } from 'react';
import type { z } from 'zod';

/**
 * Form state validated by a shared zod schema: the same schema the server runs. Errors are error codes,
 * translated by the caller; a field's error clears as soon as it is edited.
 */
export function useSchemaForm<S extends z.ZodType<Record<string, unknown>>>(schema: S, initial: z.input<S>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});

  return {
    values,
    errors,
    setErrors,
    /** Sets one field and clears its error. */
    set<K extends keyof z.input<S>>(key: K, value: z.input<S>[K]) {
      setValues((v) => ({ ...(v as Record<string, unknown>), [key]: value }) as z.input<S>);
      setErrors(({ [key as string]: _dropped, ...rest }) => rest);
    },
    /** Validates everything; returns the parsed values or undefined after showing the errors. */
    validate(): z.output<S> | undefined {
      const result = schema.safeParse(values);
      if (result.success) return result.data;
      setErrors(fieldErrors(result.error));
      return undefined;
    },
    reset() {
      setValues(initial);
      setErrors({});
    },
  };
}

/**
 * A schema form whose submit validates, then sends: `send` gets the parsed values, and an error it throws goes to
 * `onError` with a setter for field errors (to show under a field, or as a toast). `busy` is true while sending.
 */
export function useSubmitForm<S extends z.ZodType<Record<string, unknown>>>(
  schema: S,
  initial: z.input<S>,
  send: (values: z.output<S>) => Promise<void>,
  onError: (err: unknown, setErrors: (errors: Record<string, string>) => void) => void,
) {
  const form = useSchemaForm(schema, initial);
  const [busy, setBusy] = useState(false);
  const submit = async (event?: React.FormEvent) => {
    event?.preventDefault();
    const values = form.validate();
    if (!values) return;
    setBusy(true);
    try {
      await send(values);
    } catch (err) {
      onError(err, form.setErrors);
    } finally {
      setBusy(false);
    }
  };
  return { form, busy, submit };
}
