/**
 * The image source of Barong's QR `barcode`: the bare base64 of a PNG, to which the client adds the data URL
 * prefix (as BaseApp does). A value that is already a data URL is used as it is.
 */
export function barcodeSrc(barcode: string): string {
  return barcode.startsWith('data:') ? barcode : `data:image/png;base64,${barcode}`;
}
