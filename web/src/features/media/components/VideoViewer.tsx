import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Spin, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onLiveMessage } from '../../../api/events';
import { startDownload } from '../../../api/bytes';
import type { ViewerProps } from '../../../actions/viewers';
import { coverUrl, fetchMediaInfo, hlsUrl, mediaKeys } from '../api';
import '../media.css';

type Mode = 'hls' | 'direct';

/**
 * A video: its HLS rendition through hls.js when it has one (the browser's own HLS where
 * MediaSource is missing), else the file itself, streamed with Range. While a transcode runs
 * the original plays and the progress shows.
 */
export default function VideoViewer({ item, source, onClose }: ViewerProps) {
  const { t } = useTranslation('media');
  const video = useRef<HTMLVideoElement>(null);
  const [mode, setMode] = useState<Mode | null>(null);
  const [error, setError] = useState(false);
  const info = useQuery({
    queryKey: mediaKeys.info(source, item),
    queryFn: ({ signal }) => fetchMediaInfo(source, item, signal),
    retry: false,
    refetchInterval: (query) => {
      const state = query.state.data?.hls?.state;
      return state === 'queued' || state === 'running' ? 2000 : false;
    },
  });

  // the owner's transcodes report themselves live: the note follows at once
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onLiveMessage('transcodeStatus', (message) => {
        const body = message.body as { fileId?: string } | null;
        if (body?.fileId === item.id)
          void queryClient.invalidateQueries({ queryKey: mediaKeys.info(source, item) });
      }),
    [queryClient, source, item],
  );

  // the way to play is chosen once, when the info first arrives: a finished transcode never
  // swaps the stream under someone watching
  const decided: Mode | null = info.data
    ? info.data.hls?.state === 'done'
      ? 'hls'
      : 'direct'
    : info.isError
      ? 'direct'
      : null;
  if (!mode && decided) setMode(decided);

  useEffect(() => {
    const element = video.current;
    if (!element || !mode) return;
    if (mode === 'direct' || !info.data) {
      element.src = source.bytesUrl(item);
      return;
    }
    const url = hlsUrl(source, info.data);
    let destroyed = false;
    let destroy = () => {};
    void import('hls.js').then(({ default: Hls }) => {
      if (destroyed) return;
      if (!Hls.isSupported()) {
        element.src = url;
        return;
      }
      const headers = source.headers();
      const hls = new Hls({
        xhrSetup: (xhr) => {
          for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
        },
      });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) setError(true);
      });
      hls.loadSource(url);
      hls.attachMedia(element);
      destroy = () => hls.destroy();
    });
    return () => {
      destroyed = true;
      destroy();
    };
    // the stream follows the chosen mode only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode, item.id]);

  const probe = info.data?.video;
  const hls = info.data?.hls;
  const downloadUrl = source.downloadUrl(item);
  const running = hls && (hls.state === 'queued' || hls.state === 'running');
  return (
    <Modal
      open
      onCancel={onClose}
      width="100vw"
      footer={null}
      destroyOnHidden
      className="nb-video"
      title={
        <div className="nb-video__bar">
          <span className="nb-video__name">{item.name}</span>
          {mode ? (
            <Tag color={mode === 'hls' ? 'blue' : 'default'} data-testid="video-mode">
              {mode === 'hls' ? t('video.hls') : t('video.original')}
            </Tag>
          ) : null}
          {downloadUrl ? (
            <Button
              size="small"
              icon={<DownloadOutlined />}
              onClick={() => startDownload(downloadUrl, item.name)}
            >
              {t('video.download')}
            </Button>
          ) : null}
        </div>
      }
    >
      <div data-testid="video-viewer" style={{ display: 'contents' }}>
        {!mode ? <Spin tip={t('video.loading')} /> : null}
        {running && mode === 'direct' ? (
          <Alert
            className="nb-video__note"
            type="info"
            showIcon
            message={t('video.transcoding', { progress: hls.progress })}
          />
        ) : null}
        {error ? (
          <Alert className="nb-video__note" type="error" showIcon message={t('video.failed')} />
        ) : null}
        <video
          ref={video}
          className="nb-video__element"
          data-testid="video-element"
          data-mode={mode ?? ''}
          hidden={!mode}
          controls
          autoPlay
          playsInline
          poster={probe?.hasCover ? coverUrl(source, item) : undefined}
          onError={() => {
            if (mode === 'direct') setError(true);
          }}
        />
      </div>
    </Modal>
  );
}
