import type { CardDocumentType } from '@exchange/shared';
import { Badge, Button, FileButton, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { CARD_KEYS, cardCalls, documentImageUrl } from './api.ts';
import { cardErrorText } from './format.ts';
import { CARD_IMAGE_ACCEPT, compressImage, imageFileError } from './image.ts';

/** One document image (docs/cards.md#validation): JPEG or PNG under 10 MB, compressed in the browser, then uploaded. */
export function DocumentUpload({ docType, uploaded }: { docType: CardDocumentType; uploaded: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [version, setVersion] = useState(0);
  const label = t(`card.kyc.doc.${docType}`);

  const choose = async (file: File | null) => {
    if (!file) return;
    const problem = imageFileError(file);
    if (problem) return setError(t(problem));
    setError(undefined);
    setBusy(true);
    try {
      const image = await compressImage(file);
      await cardCalls.uploadDocument(docType, image);
      setVersion(Date.now());
      toast.success(t('card.kyc.uploadedToast'));
      await client.invalidateQueries({ queryKey: CARD_KEYS.holder });
    } catch (err) {
      // A file the browser cannot decode as an image is refused like a wrong format.
      setError(err instanceof ApiError ? cardErrorText(t, err) : t('account.card.invalid_document_format'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid={`card-doc-${docType}`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={500}>{label}</Text>
          <Badge color={uploaded ? 'teal' : 'gray'} variant="light" data-testid={`card-doc-${docType}-state`}>
            {t(uploaded ? 'card.kyc.uploaded' : 'card.kyc.missing')}
          </Badge>
        </Group>
        {uploaded && (
          <Image
            src={documentImageUrl(docType, version)}
            alt={t('card.kyc.preview', { doc: label })}
            h={120}
            w="auto"
            fit="contain"
            radius="sm"
          />
        )}
        <FileButton
          onChange={(file) => void choose(file)}
          accept={CARD_IMAGE_ACCEPT}
          inputProps={{ 'aria-label': label, ...{ 'data-testid': `card-upload-${docType}` } }}
        >
          {(props) => (
            <Button
              {...props}
              variant="light"
              loading={busy}
              w="fit-content"
              aria-label={`${label}: ${t(uploaded ? 'card.kyc.replace' : 'card.kyc.choose')}`}
            >
              {t(uploaded ? 'card.kyc.replace' : 'card.kyc.choose')}
            </Button>
          )}
        </FileButton>
        {error && (
          <Text c="red" size="sm" role="alert" data-testid={`card-doc-${docType}-error`}>
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
