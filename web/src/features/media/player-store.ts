import { create } from 'zustand';
import type { PreviewItem, PreviewSource } from '../../actions/viewers';

/** A song of the playlist: the file and where its bytes come from (the drive or a share). */
export interface Track {
  key: string;
  item: PreviewItem;
  source: PreviewSource;
}

interface PlayerState {
  tracks: Track[];
  current: number;
  /** Hidden until a file is added; closing hides it (and pauses). */
  visible: boolean;
  /** Changes whenever a song is chosen, so the player starts it even if it is the same one. */
  started: number;
  add: (item: PreviewItem, source: PreviewSource) => void;
  play: (index: number) => void;
  step: (delta: number) => void;
  remove: (key: string) => void;
  close: () => void;
}

export const trackKey = (item: PreviewItem, source: PreviewSource) =>
  `${source.kind === 'share' ? `share:${source.shareId}` : 'drive'}:${item.id}`;

/** The floating audio player's playlist (spec §2): one per tab, kept across navigation. */
export const usePlayerStore = create<PlayerState>((set, get) => ({
  tracks: [],
  current: 0,
  visible: false,
  started: 0,
  add: (item, source) => {
    const key = trackKey(item, source);
    const { tracks, started } = get();
    const at = tracks.findIndex((t) => t.key === key);
    if (at >= 0) {
      set({ current: at, visible: true, started: started + 1 });
      return;
    }
    set({
      tracks: [...tracks, { key, item, source }],
      current: tracks.length,
      visible: true,
      started: started + 1,
    });
  },
  play: (index) => {
    const { tracks, started } = get();
    if (index < 0 || index >= tracks.length) return;
    set({ current: index, started: started + 1 });
  },
  step: (delta) => {
    const { tracks, current } = get();
    if (tracks.length === 0) return;
    get().play((current + delta + tracks.length) % tracks.length);
  },
  remove: (key) => {
    const { tracks, current } = get();
    const at = tracks.findIndex((t) => t.key === key);
    if (at < 0) return;
    const next = tracks.filter((t) => t.key !== key);
    set({
      tracks: next,
      current: Math.min(at < current ? current - 1 : current, Math.max(0, next.length - 1)),
      visible: next.length > 0 && get().visible,
    });
  },
  close: () => set({ visible: false }),
}));
