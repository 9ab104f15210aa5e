import { type CustodyBalanceEntity, type CustodyLimitsInput, custodyLimitsSchemaFor } from '@exchange/shared';
import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { codeText } from '../auth/components/errors.ts';
import { CUSTODY_KEY } from './custodyQuery.ts';
import { useAdminAction } from './useAdminAction.ts';

type Field = 'hot_min' | 'hot_max';

/**
 * The hot wallet's bounds of one currency on one network. Checked as typed with the server's own schema at the
 * currency's precision (each refusal shown under its field by its code's message); an empty field is no bound. The
 * server checks again and keeps the trail; its refusal is shown the same way.
 */
export function CustodyLimitsForm({
  network,
  line,
  onDone,
}: {
  network: string;
  line: CustodyBalanceEntity;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { run, busy } = useAdminAction([CUSTODY_KEY]);
  const [values, setValues] = useState<Record<Field, string>>({
    hot_min: line.hot_min ?? '',
    hot_max: line.hot_max ?? '',
  });
  const body: CustodyLimitsInput = {
    blockchain_key: network,
    currency: line.currency,
    hot_min: values.hot_min.trim() === '' ? null : values.hot_min.trim(),
    hot_max: values.hot_max.trim() === '' ? null : values.hot_max.trim(),
  };
  const checked = custodyLimitsSchemaFor(line.precision).safeParse(body);
  const errorOf = (field: Field) => {
    const issue = checked.success ? undefined : checked.error.issues.find((i) => i.path[0] === field);
    return issue ? codeText(t, issue.message) : undefined;
  };
  const save = async () => {
    if (!checked.success) return;
    if (await run('save', 'PUT', '/custody/limits', body, t('admin.custody.saved'))) onDone();
  };
  const input = (field: Field, label: string) => (
    <TextInput
      size="xs"
      label={label}
      placeholder={t('admin.custody.none')}
      aria-label={`${network} ${line.currency} ${field}`}
      value={values[field]}
      error={errorOf(field)}
      onChange={(e) => setValues({ ...values, [field]: e.currentTarget.value })}
    />
  );
  return (
    <Group align="flex-start" data-testid={`admin-custody-form-${network}-${line.currency}`}>
      {input('hot_min', `${line.currency.toUpperCase()} ${t('admin.custody.min')}`)}
      {input('hot_max', t('admin.custody.max'))}
      <Group gap="xs" mt={22}>
        <Button size="compact-sm" loading={busy === 'save'} disabled={!checked.success} onClick={save}>
          {t('admin.custody.save')}
        </Button>
        <Button size="compact-sm" variant="default" onClick={onDone}>
          {t('admin.custody.cancel')}
        </Button>
      </Group>
    </Group>
  );
}
