import { lazy } from 'react';
import type { Viewer } from '../../actions/viewers';
import { isAudio, isVideo } from './api';
import { usePlayerStore } from './player-store';

/** Videos: HLS when transcoded, else the file streamed as it is. */
export const videoViewer: Viewer = {
  id: 'video',
  stage: 'video',
  accepts: (item) => isVideo(item),
  view: lazy(() => import('./components/VideoViewer')),
};

/** Audio: added to the floating player's playlist, which shows itself and plays. */
export const audioViewer: Viewer = {
  id: 'audio',
  stage: 'audio',
  accepts: (item) => isAudio(item),
  run: (item, _siblings, source) => usePlayerStore.getState().add(item, source),
};

/** The viewers of the media feature, for the composition root. */
export const MEDIA_VIEWERS: readonly Viewer[] = [videoViewer, audioViewer];
