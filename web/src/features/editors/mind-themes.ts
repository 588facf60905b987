import type { KmTheme } from './km';

// The nine themes of a `.km` file, drawn in Nimbus's own colours: a background, the lines, and
// the root, second-level and other topics. The compact ones pack the topics closer.

interface Palette {
  background: string;
  line: string;
  root: [fill: string, text: string];
  second: [fill: string, text: string, border: string];
  node: string;
}

/** The palettes of the themes; a compact theme has its plain twin's colours. */
const PALETTES: Record<Exclude<KmTheme, `${string}-compact`>, Palette> = {
  'fresh-blue': {
    background: '#fbfdff',
    line: '#73a1d9',
    root: ['#3d6dfa', '#ffffff'],
    second: ['#eef4ff', '#1f3b7a', '#9ab8f2'],
    node: '#24324d',
  },
  wire: {
    background: '#ffffff',
    line: '#333333',
    root: ['#ffffff', '#111111'],
    second: ['#ffffff', '#222222', '#333333'],
    node: '#222222',
  },
  fish: {
    background: '#fffaf0',
    line: '#c68a3a',
    root: ['#b5651d', '#ffffff'],
    second: ['#fff0d9', '#6b3d0f', '#d9a35f'],
    node: '#4d2d0c',
  },
  classic: {
    background: '#f4f4ee',
    line: '#8ea35b',
    root: ['#5a7a1f', '#ffffff'],
    second: ['#eaf2d7', '#33461a', '#a8bd78'],
    node: '#2f3a1c',
  },
  snow: {
    background: '#f2f6f9',
    line: '#9fb7c9',
    root: ['#547c9c', '#ffffff'],
    second: ['#ffffff', '#2c4a61', '#b9cddb'],
    node: '#2c4a61',
  },
  tianpan: {
    background: '#1f2430',
    line: '#7d8bb0',
    root: ['#e0b44b', '#1f2430'],
    second: ['#2f3750', '#e8ecf8', '#59658a'],
    node: '#d5dbed',
  },
};

/** The editor's theme settings for a `.km` theme. */
export function themeConfigOf(theme: KmTheme): Record<string, unknown> {
  const compact = theme.endsWith('-compact');
  const p = PALETTES[theme.replace(/-compact$/, '') as keyof typeof PALETTES];
  return {
    backgroundColor: p.background,
    lineColor: p.line,
    lineWidth: 2,
    generalizationLineColor: p.line,
    root: { fillColor: p.root[0], color: p.root[1], borderColor: p.root[0], borderWidth: 0 },
    second: {
      fillColor: p.second[0],
      color: p.second[1],
      borderColor: p.second[2],
      borderWidth: 1,
      marginX: compact ? 60 : 100,
      marginY: compact ? 12 : 40,
    },
    node: { color: p.node, marginX: compact ? 30 : 50, marginY: compact ? 4 : 0 },
    paddingX: compact ? 10 : 15,
    paddingY: compact ? 3 : 5,
  };
}
