import { Badge, Button, Group, Image, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast.ts';
import { CARD_KEYS, cardCalls, documentImageUrl } from './api.ts';
import { cardErrorText } from './format.ts';
import { drawAsJpeg } from './image.ts';

type CameraState = 'idle' | 'starting' | 'live' | 'denied';

/**
 * The selfie, taken with the camera (docs/cards.md#validation): a live preview and Capture, which draws the frame to a canvas
 * (at most 600x600, JPEG quality 0.4) and uploads it. A refused or missing camera says "Allow camera permission
 * and refresh page". The camera is off until asked for, and stops after a capture or on leaving.
 */
export function SelfieCapture({ uploaded }: { uploaded: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [camera, setCamera] = useState<CameraState>('idle');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [version, setVersion] = useState(0);
  // Capture draws the current frame: until the camera delivers one, there is nothing to draw.
  const [hasFrame, setHasFrame] = useState(false);

  useEffect(() => {
    const element = video.current;
    if (!element || !stream) return;
    element.srcObject = stream;
    void element.play().catch(() => {});
  }, [stream]);
  useEffect(
    () => () => {
      for (const track of stream?.getTracks() ?? []) track.stop();
    },
    [stream],
  );

  const open = async () => {
    setError(undefined);
    setHasFrame(false);
    setCamera('starting');
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('no camera');
      setStream(await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false }));
      setCamera('live');
    } catch {
      setCamera('denied');
    }
  };

  const capture = async () => {
    const element = video.current;
    if (!element?.videoWidth) return;
    setBusy(true);
    setError(undefined);
    try {
      const image = await drawAsJpeg(element, element.videoWidth, element.videoHeight);
      await cardCalls.uploadDocument('selfie', image);
      setStream(null);
      setCamera('idle');
      setVersion(Date.now());
      toast.success(t('card.kyc.uploadedToast'));
      await client.invalidateQueries({ queryKey: CARD_KEYS.holder });
    } catch (err) {
      setError(cardErrorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid="card-doc-selfie">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={500}>{t('card.kyc.doc.selfie')}</Text>
          <Badge color={uploaded ? 'teal' : 'gray'} variant="light" data-testid="card-doc-selfie-state">
            {t(uploaded ? 'card.kyc.uploaded' : 'card.kyc.missing')}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {t('card.selfie.hint')}
        </Text>
        {uploaded && camera !== 'live' && (
          <Image
            src={documentImageUrl('selfie', version)}
            alt={t('card.kyc.preview', { doc: t('card.kyc.doc.selfie') })}
            h={120}
            w="auto"
            fit="contain"
            radius="sm"
          />
        )}
        {camera === 'starting' && <Loader size="sm" aria-label={t('card.selfie.starting')} />}
        {camera === 'live' && (
          <video
            ref={video}
            muted
            playsInline
            autoPlay
            aria-label={t('card.selfie.video')}
            data-testid="card-selfie-video"
            onLoadedData={(event) => setHasFrame(event.currentTarget.videoWidth > 0)}
            style={{ width: '100%', maxWidth: 360, borderRadius: 8, transform: 'scaleX(-1)' }}
          />
        )}
        {camera === 'denied' && (
          <Text c="red" size="sm" role="alert" data-testid="card-camera-denied">
            {t('card.camera.denied')}
          </Text>
        )}
        <Group>
          {camera === 'live' ? (
            <Button
              onClick={() => void capture()}
              loading={busy}
              disabled={!hasFrame}
              data-testid="card-selfie-capture"
            >
              {t('card.selfie.capture')}
            </Button>
          ) : (
            <Button
              variant="light"
              onClick={() => void open()}
              loading={camera === 'starting'}
              disabled={camera === 'denied'}
              data-testid="card-selfie-open"
            >
              {t(uploaded ? 'card.selfie.retake' : 'card.selfie.open')}
            </Button>
          )}
        </Group>
        {error && (
          <Text c="red" size="sm" role="alert" data-testid="card-doc-selfie-error">
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
