import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ownerSource } from '../../../actions/preview-sources';
import type { PreviewItem } from '../../../actions/viewers';
import { fetchMediaInfo, isAudio, isVideo, mediaKeys } from '../api';

/** m:ss, or h:mm:ss from an hour. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The details drawer's part for a song or a video of one's drive: its tags, or its probe. */
export function MediaDetailsSection({ file }: { file: PreviewItem }) {
  const { t } = useTranslation('media');
  const source = useMemo(() => ownerSource(), []);
  const wanted = isAudio(file) || isVideo(file);
  const info = useQuery({
    queryKey: mediaKeys.info(source, file),
    queryFn: ({ signal }) => fetchMediaInfo(source, file, signal),
    enabled: wanted,
    staleTime: 60_000,
    retry: false,
  });
  if (!wanted || !info.data) return null;
  const { music, video, hls } = info.data;
  const rows: [string, string][] = [];
  if (music) {
    rows.push([t('details.songName'), music.songName]);
    if (music.singer) rows.push([t('details.singer'), music.singer]);
    if (music.album) rows.push([t('details.album'), music.album]);
    if (music.duration) rows.push([t('details.duration'), formatDuration(music.duration)]);
  }
  if (video) {
    rows.push([t('details.duration'), formatDuration(video.duration)]);
    rows.push([t('details.resolution'), `${video.width} × ${video.height}`]);
    if (video.frameRate) rows.push([t('details.frameRate'), `${video.frameRate} fps`]);
    if (video.bitrate) rows.push([t('details.bitrate'), `${video.bitrate} kbps`]);
    rows.push([
      t('details.codecs'),
      [video.videoCodec, video.audioCodec].filter(Boolean).join(' / '),
    ]);
    if (hls) rows.push([t('details.stream'), t(`details.hls.${hls.state}`)]);
  }
  if (rows.length === 0) return null;
  return (
    <section data-testid="details-media">
      <h4 style={{ margin: '16px 0 8px' }}>{music ? t('details.music') : t('details.video')}</h4>
      <dl className="nb-details__list">
        {rows.map(([label, value]) => (
          <div key={label} className="nb-details__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
