import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { codeText, errorText } from '../auth/components/errors.ts';

/**
 * One admin change: checks it with the route's shared schema when given, sends it, shows the server's refusal
 * by its code, refreshes `refresh` queries. A lapsed
 * step-up refreshes the console, which then asks for a code again.
 */
export function useAdminAction(refresh: string[][]) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (
    key: string,
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    done?: string,
    schema?: ZodType,
  ) => {
    // The server's own schema checks the input first: a refusal it would give is shown without a request.
    const checked = schema?.safeParse(body);
    if (checked && !checked.success) {
      toast.error(codeText(t, checked.error.issues[0]?.message ?? 'server.error'));
      return undefined;
    }
    setBusy(key);
    try {
      const result = await api('admin', path, { method, body });
      toast.success(done ?? t('admin.done'));
      for (const queryKey of refresh) await client.invalidateQueries({ queryKey });
      return result;
    } catch (err) {
      toast.error(errorText(t, err));
      await client.invalidateQueries({ queryKey: ['adminMe'] });
      return undefined;
    } finally {
      setBusy(null);
    }
  };
  return { run, busy };
}
