import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, apiDownload } from '../../api/client.ts';
import { errorText } from '../auth/components/errors.ts';
import { formatDateTime } from './kyc.ts';
import { SECURITY_LOG_QUERY } from './SecurityLogSection.tsx';

/** Hands a downloaded file to the browser to save, under its name, then lets the page's copy go. */
function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the click has handed the file to the browser by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The refusal's text; for the daily limit, with the moment the next copy is possible. */
function refusalText(t: ReturnType<typeof useTranslation>['t'], err: unknown): string {
  const next = err instanceof ApiError ? err.details.next_at : undefined;
  if (err instanceof ApiError && err.errors[0] === 'resource.user.export_limit' && typeof next === 'string')
    return t('yourData.limit', { at: formatDateTime(next) });
  return errorText(t, err);
}

/**
 * Settings › Your data (issue 31, part 5): a copy of everything the exchange keeps about the user, as a ZIP of
 * CSV and JSON files from `GET /resource/users/export`, once a day; a refusal says when the next one is possible.
 */
export function YourDataSection() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const download = useMutation({
    mutationFn: () => apiDownload('barong', '/resource/users/export', 'exchange-data.zip'),
    onSuccess: ({ blob, filename }) => save(blob, filename),
    // The export is in the security log, and a refused one may have raced another tab's.
    onSettled: () => queries.invalidateQueries({ queryKey: [SECURITY_LOG_QUERY] }),
  });

  return (
    <Paper withBorder p="lg" data-testid="your-data-section">
      <Stack align="flex-start">
        <Title order={3}>{t('yourData.title')}</Title>
        <Text size="sm">{t('yourData.hint')}</Text>
        <Text size="sm" c="dimmed">
          {t('yourData.rule')}
        </Text>
        <Button
          onClick={() => download.mutate()}
          loading={download.isPending}
          data-testid="your-data-download"
        >
          {t('yourData.download')}
        </Button>
        {download.isError && (
          <Alert color="red" role="alert" data-testid="your-data-error">
            {refusalText(t, download.error)}
          </Alert>
        )}
        {download.isSuccess && (
          <Text size="sm" c="teal" role="status">
            {t('yourData.done')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
