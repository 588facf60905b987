import { lazy, Suspense } from 'react';
import { usePlayerStore } from '../player-store';

const AudioPlayer = lazy(() => import('./AudioPlayer'));

/** Where the floating audio player lives: nothing is loaded until a song is added. */
export function AudioPlayerHost() {
  const hasTracks = usePlayerStore((s) => s.tracks.length > 0);
  if (!hasTracks) return null;
  return (
    <Suspense fallback={null}>
      <AudioPlayer />
    </Suspense>
  );
}
