import { ApiError } from '../../api/client';
import type { PreviewItem, PreviewSource } from './registry';

/** Text previews stop after 2 MB; the rest is a download away. */
export const TEXT_PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

/** The first `maxBytes` of a file as text (a Range request), and whether there is more. */
export async function fetchTextHead(
  source: PreviewSource,
  item: PreviewItem,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  const headers = new Headers(source.headers());
  if (item.size > maxBytes) headers.set('Range', `bytes=0-${maxBytes - 1}`);
  const response = await fetch(source.bytesUrl(item), {
    headers,
    signal,
    credentials: 'same-origin',
  });
  if (!response.ok && response.status !== 206)
    throw new ApiError('transport', `HTTP ${response.status}`, -1000, response.status);
  const buffer = await response.arrayBuffer();
  const bytes = new Uint8Array(buffer.byteLength > maxBytes ? buffer.slice(0, maxBytes) : buffer);
  const truncated = item.size > maxBytes || buffer.byteLength > maxBytes;
  // `stream: true` keeps a character cut at the end from turning into a replacement mark
  const text = new TextDecoder('utf-8').decode(bytes, { stream: truncated });
  return { text, truncated };
}
