import sharp from 'sharp';
import { formatLimit, LOGO_MAX_BYTES, LOGO_SUFFIXES, logoProblem } from '@nimbus/contract';
import { badParameter } from '../../lib/errors.ts';

/** The logo is kept at this size at most: the title bar and the favicon show it small. */
const LOGO_PIXELS = 256;
/** The suffixes a logo may have, as the refusal names them: `SVG, JPG, JPEG or PNG`. */
const LOGO_KINDS = LOGO_SUFFIXES.map((s) => s.toUpperCase())
  .join(', ')
  .replace(/, ([^,]+)$/, ' or $1');

/**
 * A disk logo as it is kept and shown: a PNG data URL, redrawn from what was uploaded. An SVG is
 * drawn to pixels here, so no script or link inside it ever reaches a browser, and nothing the
 * administrator uploaded is served from the drive's own address.
 */
export async function logoDataUrl(bytes: Buffer, filename: string): Promise<string> {
  const problem = logoProblem({ name: filename, size: bytes.length });
  if (problem === 'format') throw badParameter(`file: the logo must be an ${LOGO_KINDS} image`);
  if (problem === 'empty') throw badParameter('file: the logo is empty');
  if (problem === 'size')
    throw badParameter(`file: the logo must be ${formatLimit(LOGO_MAX_BYTES)} at most`);
  let png: Buffer;
  try {
    const image = sharp(bytes, { density: 300, limitInputPixels: 4096 * 4096 });
    const { format } = await image.metadata();
    if (format !== 'svg' && format !== 'jpeg' && format !== 'png') throw new Error(format);
    png = await image
      .resize(LOGO_PIXELS, LOGO_PIXELS, { fit: 'inside', withoutEnlargement: format !== 'svg' })
      .png()
      .toBuffer();
  } catch {
    throw badParameter('file: this is not an SVG, JPEG or PNG image that can be read');
  }
  return `data:image/png;base64,${png.toString('base64')}`;
}
