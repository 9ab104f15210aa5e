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
 * A schema form whose submit validates, sends and reports: `send` gets the parsed values; an error it throws is
 * shown under `errorField` (as the text `describe` makes of it). `busy` is true while sending.
 */
export function useSubmitForm<S extends z.ZodType<Record<string, unknown>>>(
  schema: S,
  initial: z.input<S>,
  send: (values: z.output<S>) => Promise<void>,
  errorField: keyof z.input<S> & string,
  describe: (err: unknown) => string,
) {
  const form = useSchemaForm(schema, initial);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const values = form.validate();
    if (!values) return;
    setBusy(true);
    try {
      await send(values);
    } catch (err) {
      form.setErrors({ [errorField]: describe(err) });
    } finally {
      setBusy(false);
    }
  };
  return { form, busy, submit };
}
