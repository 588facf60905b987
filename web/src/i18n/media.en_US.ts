/** English texts of the audio player and the video player (the `media` namespace). */
const media = {
  player: {
    title: 'Now playing',
    unknownSinger: 'Unknown artist',
    playlist: 'Playlist',
    previous: 'Previous',
    next: 'Next',
    close: 'Close player',
    remove: 'Remove from playlist',
    empty: 'The playlist is empty',
    count: '{{count}} songs',
  },
  video: {
    loading: 'Loading the video…',
    hls: 'Streaming',
    original: 'Original',
    transcoding: 'Transcoding {{progress}}% — playing the original meanwhile',
    failed: 'This video cannot be played in the browser',
    download: 'Download',
  },
  details: {
    music: 'Music',
    video: 'Video',
    songName: 'Song',
    singer: 'Artist',
    album: 'Album',
    duration: 'Duration',
    resolution: 'Resolution',
    frameRate: 'Frame rate',
    bitrate: 'Bitrate',
    codecs: 'Codecs',
    stream: 'Streaming',
    hls: {
      none: 'Plays as it is',
      queued: 'Waiting to transcode',
      running: 'Transcoding',
      done: 'Transcoded (HLS)',
      failed: 'Transcoding failed',
    },
  },
};

export default media;
