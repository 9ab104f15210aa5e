import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { errorText } from '../auth/components/errors.ts';

/**
 * One admin change: sends it, shows the server's refusal by its code, refreshes `refresh` queries. A lapsed
 * step-up refreshes the console, which then asks for a code again.
 */
export function useAdminAction(refresh: string[][]) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, method: 'POST' | 'DELETE', path: string, body?: unknown, done?: string) => {
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
