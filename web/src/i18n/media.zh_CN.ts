import type media from './media.en_US';
import type { LocaleTree } from './types';

/** 音频与视频播放器的中文文本（`media` 命名空间）。 */
const mediaZh: LocaleTree<typeof media> = {
  player: {
    title: '正在播放',
    unknownSinger: '未知歌手',
    playlist: '播放列表',
    previous: '上一首',
    next: '下一首',
    close: '关闭播放器',
    remove: '从播放列表移除',
    empty: '播放列表为空',
    count: '{{count}} 首',
  },
  video: {
    loading: '正在加载视频…',
    hls: '流媒体',
    original: '原画',
    transcoding: '正在转码 {{progress}}%，先播放原视频',
    failed: '此视频无法在浏览器中播放',
    download: '下载',
  },
  details: {
    music: '音乐',
    video: '视频',
    songName: '歌曲',
    singer: '歌手',
    album: '专辑',
    duration: '时长',
    resolution: '分辨率',
    frameRate: '帧率',
    bitrate: '码率',
    codecs: '编码',
    stream: '流媒体',
    hls: {
      none: '直接播放',
      queued: '等待转码',
      running: '正在转码',
      done: '已转码（HLS）',
      failed: '转码失败',
    },
  },
};

export default mediaZh;
