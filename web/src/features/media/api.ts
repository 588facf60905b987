import { mediaApi, mediaVisitorApi, type Envelope, type MediaInfo } from '@nimbus/contract';
import { ApiError } from '../../api/client';
import { endpointAddress, endpointUrl } from '../../api/endpoints';
import { iconKindOf } from '../../lib/file-kinds';
import type { PreviewItem, PreviewSource } from '../../actions/viewers';

export const isVideo = (item: PreviewItem) =>
  !item.isFolder && (item.type === 'video' || iconKindOf(item) === 'video');
export const isAudio = (item: PreviewItem) =>
  !item.isFolder && (item.type === 'audio' || iconKindOf(item) === 'audio');

/** A file's media info and cover, as the owner and as a share's visitors reach them. */
const INFO = { owner: mediaApi.info, visitor: mediaVisitorApi.info };
const COVER = { owner: mediaApi.cover, visitor: mediaVisitorApi.cover };

export const mediaKeys = {
  info: (source: PreviewSource, item: PreviewItem) =>
    ['media', 'info', source.kind, source.kind === 'share' ? source.shareId : '', item.id] as const,
};

/** A file's tags, probe and HLS state, through the source's own route (owner or share). */
export async function fetchMediaInfo(
  source: PreviewSource,
  item: PreviewItem,
  signal?: AbortSignal,
): Promise<MediaInfo> {
  const response = await fetch(source.api(INFO, { id: item.id }), {
    headers: source.headers(),
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok)
    throw new ApiError('transport', `HTTP ${response.status}`, -1000, response.status);
  const envelope = (await response.json()) as Envelope<MediaInfo>;
  if (envelope.code !== 0 || !envelope.data)
    throw new ApiError('business', envelope.message, envelope.code, response.status);
  return envelope.data;
}

/** The cover of an audio or video file, as an `<img>` address. */
export const coverUrl = (source: PreviewSource, item: Pick<PreviewItem, 'id'>) =>
  source.api(COVER, { id: item.id });

/** The HLS playlist of a transcoded video; its parts resolve beside it. */
export function hlsUrl(source: PreviewSource, info: MediaInfo): string {
  const playlist = { username: info.username, file: `${info.fileId}.m3u8` };
  if (source.kind === 'share')
    return endpointAddress(mediaVisitorApi.hls, undefined, {
      shareId: source.shareId,
      shareToken: source.shareToken || '-',
      ...playlist,
    });
  return endpointUrl(mediaApi.hls, undefined, playlist);
}
