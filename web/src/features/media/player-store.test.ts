import { beforeEach, describe, expect, it } from 'vitest';
import type { PreviewItem, PreviewSource } from '../../actions/viewers';
import { usePlayerStore } from './player-store';

const song = (id: string): PreviewItem => ({
  id,
  name: `${id}.mp3`,
  path: '/music/',
  isFolder: false,
  size: 1000,
  contentType: 'audio/mpeg',
  suffix: 'mp3',
  type: 'audio',
  updateDate: '2026-01-01 00:00:00',
});

const source = (kind: 'owner' | 'share', shareId = ''): PreviewSource => {
  const addresses = {
    bytesUrl: (item: PreviewItem) => `/bytes/${item.id}`,
    downloadUrl: () => null,
    api: () => '',
    headers: () => ({}),
  };
  return kind === 'owner'
    ? { kind: 'owner', ...addresses }
    : { kind: 'share', shareId, shareToken: '', ...addresses };
};

const state = () => usePlayerStore.getState();

beforeEach(() => {
  usePlayerStore.setState({ tracks: [], current: 0, visible: false, started: 0 });
});

describe('the audio player (spec §2)', () => {
  it('is hidden until a song is added, then shows it as the current one', () => {
    expect(state().visible).toBe(false);
    state().add(song('a'), source('owner'));
    expect(state()).toMatchObject({ visible: true, current: 0 });
    state().add(song('b'), source('owner'));
    expect(state().tracks.map((t) => t.item.id)).toEqual(['a', 'b']);
    expect(state().current).toBe(1);
  });

  it('plays a song already listed again rather than listing it twice', () => {
    state().add(song('a'), source('owner'));
    state().add(song('b'), source('owner'));
    const started = state().started;
    state().add(song('a'), source('owner'));
    expect(state().tracks).toHaveLength(2);
    expect(state().current).toBe(0);
    expect(state().started).toBe(started + 1);
  });

  it('keeps the same file of a share and of the drive apart', () => {
    state().add(song('a'), source('owner'));
    state().add(song('a'), source('share', 's1'));
    expect(state().tracks).toHaveLength(2);
  });

  it('steps round the playlist and removes songs, keeping the current one', () => {
    for (const id of ['a', 'b', 'c']) state().add(song(id), source('owner'));
    state().step(1);
    expect(state().current).toBe(0);
    state().step(-1);
    expect(state().current).toBe(2);
    state().remove(state().tracks[0]!.key);
    expect(state().tracks.map((t) => t.item.id)).toEqual(['b', 'c']);
    expect(state().tracks[state().current]!.item.id).toBe('c');
  });

  it('closing hides it but keeps the playlist; the next song shows it again', () => {
    state().add(song('a'), source('owner'));
    state().close();
    expect(state()).toMatchObject({ visible: false });
    expect(state().tracks).toHaveLength(1);
    state().add(song('b'), source('owner'));
    expect(state().visible).toBe(true);
  });
});
