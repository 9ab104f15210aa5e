import { CARD_ERRORS, CARD_IMAGE_COMPRESSION, CARD_IMAGE_MAX_BYTES } from '@exchange/shared';

/** What the file picker offers and the check accepts: JPEG or PNG (docs/cards.md#validation: jpeg, png, jpg). */
export const CARD_IMAGE_ACCEPT = 'image/jpeg,image/png,image/jpg,.jpg,.jpeg,.png';
const TYPES = ['image/jpeg', 'image/png', 'image/jpg'];
const EXTENSIONS = /\.(jpe?g|png)$/i;

/**
 * Why a chosen file cannot be a card-holder image, as an error code, or undefined when it can: a JPEG or PNG
 * (by its type, or by its extension when the browser gives no type), under 10 MB (docs/cards.md#validation).
 */
export function imageFileError(file: { name: string; type: string; size: number }): string | undefined {
  const typed = file.type ? TYPES.includes(file.type.toLowerCase()) : EXTENSIONS.test(file.name);
  if (!typed) return CARD_ERRORS.documentFormatInvalid;
  if (file.size >= CARD_IMAGE_MAX_BYTES) return CARD_ERRORS.documentTooLarge;
  return undefined;
}

/** The size an image is drawn at: scaled down (never up) to fit the box, keeping its proportions. */
export function fitWithin(
  width: number,
  height: number,
  maxWidth: number = CARD_IMAGE_COMPRESSION.maxWidth,
  maxHeight: number = CARD_IMAGE_COMPRESSION.maxHeight,
): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * Draws an image, a video frame or a bitmap into a canvas at most 600x600 and encodes it as JPEG at quality 0.4
 * (docs/cards.md#validation). Browser only.
 */
export function drawAsJpeg(source: CanvasImageSource, width: number, height: number): Promise<Blob> {
  const size = fitWithin(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context || size.width === 0) return Promise.reject(new Error('image cannot be drawn'));
  context.drawImage(source, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('image cannot be encoded'))),
      'image/jpeg',
      CARD_IMAGE_COMPRESSION.quality,
    ),
  );
}

/** A chosen image file, compressed for upload (docs/cards.md#validation). Browser only. */
export async function compressImage(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    return await drawAsJpeg(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}
