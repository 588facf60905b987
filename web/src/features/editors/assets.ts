import { API_BASE } from '../../api/client';

/**
 * The address a document's relative links resolve against: its folder in the owner's file
 * routes (`/api/file/<user>/<folder>/`), each segment encoded.
 */
export const linkBaseOf = (username: string, folder: string) =>
  `${API_BASE}/file/${encodeURIComponent(username)}${folder
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`;

/** An image's drawn size: its own, at most `max` pixels on its longer side. */
export function imageSizeOf(url: string, max = 180): Promise<{ width: number; height: number }> {
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = () => {
      const scale = Math.min(1, max / Math.max(image.naturalWidth, image.naturalHeight, 1));
      resolve({
        width: Math.max(1, Math.round(image.naturalWidth * scale)),
        height: Math.max(1, Math.round(image.naturalHeight * scale)),
      });
    };
    image.onerror = () => resolve({ width: max, height: Math.round(max * 0.75) });
    image.src = url;
  });
}
