import {
  CloseOutlined,
  CustomerServiceOutlined,
  DeleteOutlined,
  StepBackwardOutlined,
  StepForwardOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { coverUrl, fetchMediaInfo, mediaKeys } from '../api';
import { usePlayerStore, type Track } from '../player-store';
import '../media.css';

function useTags(track: Track | undefined) {
  return useQuery({
    queryKey: track ? mediaKeys.info(track.source, track.item) : ['media', 'info', 'none'],
    queryFn: ({ signal }) => fetchMediaInfo(track!.source, track!.item, signal),
    enabled: Boolean(track),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

function Cover({ track, hasCover }: { track: Track; hasCover: boolean }) {
  const [broken, setBroken] = useState(false);
  if (!hasCover || broken)
    return (
      <div className="nb-audio__cover nb-audio__cover--none" data-testid="audio-cover-none">
        <CustomerServiceOutlined />
      </div>
    );
  return (
    <img
      className="nb-audio__cover"
      src={coverUrl(track.source, track.item)}
      alt=""
      data-testid="audio-cover"
      onError={() => setBroken(true)}
    />
  );
}

function PlaylistRow({ track, index, current }: { track: Track; index: number; current: boolean }) {
  const { t } = useTranslation('media');
  const tags = useTags(track);
  const play = usePlayerStore((s) => s.play);
  const remove = usePlayerStore((s) => s.remove);
  const music = tags.data?.music;
  return (
    <li className={current ? 'nb-audio__row nb-audio__row--current' : 'nb-audio__row'}>
      <button type="button" className="nb-audio__row-main" onClick={() => play(index)}>
        <span className="nb-audio__row-name">{music?.songName ?? track.item.name}</span>
        {music?.singer ? <span className="nb-audio__row-singer">{music.singer}</span> : null}
      </button>
      <Tooltip title={t('player.remove')}>
        <Button
          type="text"
          size="small"
          icon={<DeleteOutlined />}
          aria-label={t('player.remove')}
          onClick={() => remove(track.key)}
        />
      </Tooltip>
    </li>
  );
}

/**
 * The floating audio player (spec §2): hidden until a file is added, then shown and playing;
 * a playlist, the song's name, singer and cover; closing hides it and pauses. It lives above
 * the routes, so it keeps playing while the user moves around the app.
 */
export default function AudioPlayer() {
  const { t } = useTranslation('media');
  const { tracks, current, visible, started, step, close } = usePlayerStore();
  const audio = useRef<HTMLAudioElement>(null);
  const [listOpen, setListOpen] = useState(false);
  const track = tracks[current];
  const tags = useTags(track);
  const music = tags.data?.music;

  // a chosen song starts at once (the click that chose it allows playback)
  useEffect(() => {
    const element = audio.current;
    if (!element || !track) return;
    element.play().catch(() => {
      // the browser refused autoplay: the controls are there to start it
    });
  }, [started, track]);

  useEffect(() => {
    if (!visible) audio.current?.pause();
  }, [visible]);

  if (!track) return null;
  return (
    <div
      className="nb-audio"
      hidden={!visible}
      data-testid="audio-player"
      role="region"
      aria-label={t('player.title')}
    >
      <div className="nb-audio__head">
        <Cover key={track.key} track={track} hasCover={Boolean(music?.hasCover)} />
        <div className="nb-audio__tags">
          <Typography.Text strong ellipsis className="nb-audio__song" data-testid="audio-song-name">
            {music?.songName ?? track.item.name.replace(/\.[^.]*$/, '')}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis data-testid="audio-singer">
            {music ? music.singer || t('player.unknownSinger') : '\u00a0'}
          </Typography.Text>
        </div>
        <div className="nb-audio__buttons">
          <Tooltip title={t('player.previous')}>
            <Button
              type="text"
              size="small"
              icon={<StepBackwardOutlined />}
              aria-label={t('player.previous')}
              disabled={tracks.length < 2}
              onClick={() => step(-1)}
            />
          </Tooltip>
          <Tooltip title={t('player.next')}>
            <Button
              type="text"
              size="small"
              icon={<StepForwardOutlined />}
              aria-label={t('player.next')}
              disabled={tracks.length < 2}
              onClick={() => step(1)}
            />
          </Tooltip>
          <Tooltip title={t('player.playlist')}>
            <Button
              type={listOpen ? 'link' : 'text'}
              size="small"
              icon={<UnorderedListOutlined />}
              aria-label={t('player.playlist')}
              aria-pressed={listOpen}
              data-testid="audio-playlist-toggle"
              onClick={() => setListOpen((open) => !open)}
            />
          </Tooltip>
          <Tooltip title={t('player.close')}>
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined />}
              aria-label={t('player.close')}
              data-testid="audio-close"
              onClick={close}
            />
          </Tooltip>
        </div>
      </div>
      <audio
        ref={audio}
        key={track.key}
        className="nb-audio__element"
        src={track.source.bytesUrl(track.item)}
        controls
        preload="auto"
        data-testid="audio-element"
        onEnded={() => {
          if (tracks.length > 1) step(1);
        }}
      />
      {listOpen ? (
        <div className="nb-audio__list" data-testid="audio-playlist">
          <Typography.Text type="secondary" className="nb-audio__list-title">
            {t('player.count', { count: tracks.length })}
          </Typography.Text>
          <ul>
            {tracks.map((x, i) => (
              <PlaylistRow key={x.key} track={x} index={i} current={i === current} />
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
