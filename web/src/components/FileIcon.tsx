import { memo } from 'react';
import { iconKindOf, iconLabelOf, type IconKind } from '../lib/file-kinds';
import type { FileItem } from '@nimbus/contract';

/** One colour per kind; the page is drawn in it and the label reads white on top. */
const COLORS: Record<Exclude<IconKind, 'folder'>, string> = {
  image: '#12a37f',
  video: '#7c5cff',
  audio: '#e0488b',
  pdf: '#e5484d',
  word: '#2f6fed',
  excel: '#1e9b58',
  ppt: '#ee6a2c',
  archive: '#b7791f',
  key: '#0f766e',
  markdown: '#475569',
  code: '#0b93d6',
  text: '#7b8799',
  mind: '#e8590c',
  drawio: '#f08c00',
  other: '#94a3b8',
};

/** Small glyphs drawn on the page for kinds whose extension says little at a glance. */
function Glyph({ kind }: { kind: IconKind }) {
  const common = {
    fill: 'none',
    stroke: '#fff',
    strokeWidth: 2.2,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
  };
  switch (kind) {
    case 'image':
      return (
        <g {...common}>
          <circle cx="18.5" cy="20" r="2.6" fill="#fff" stroke="none" />
          <path d="M12 32l7-7 5 5 4-4 8 8" />
        </g>
      );
    case 'video':
      return <path d="M20 17.5v13l10.5-6.5z" fill="#fff" />;
    case 'audio':
      return (
        <g {...common}>
          <path d="M21 30.5V17.5l10-2.5v13" />
          <circle cx="18.6" cy="30.6" r="2.6" fill="#fff" stroke="none" />
          <circle cx="28.6" cy="28.2" r="2.6" fill="#fff" stroke="none" />
        </g>
      );
    case 'archive':
      return (
        <g fill="#fff">
          <rect x="21" y="8" width="3" height="3" rx="0.6" />
          <rect x="24" y="11.5" width="3" height="3" rx="0.6" />
          <rect x="21" y="15" width="3" height="3" rx="0.6" />
          <rect x="24" y="18.5" width="3" height="3" rx="0.6" />
          <rect x="21" y="22" width="6" height="7" rx="1.2" />
        </g>
      );
    case 'key':
      // a key: its bow, its shaft and two bits
      return (
        <g {...common}>
          <circle cx="17.5" cy="24" r="4.6" />
          <path d="M22.1 24H34M30.5 24v4.2M34 24v3" />
        </g>
      );
    case 'word':
      // a written page: a W over a line
      return (
        <g {...common}>
          <path d="M14.5 16l3.4 12.5L24 18.5l6.1 10L33.5 16" />
          <path d="M15 33.5h18" strokeWidth={2} />
        </g>
      );
    case 'excel':
      // a sheet of cells
      return (
        <g {...common} strokeWidth={2}>
          <rect x="13.5" y="15" width="21" height="18" rx="1.6" />
          <path d="M13.5 21h21M13.5 27h21M21 15v18" />
        </g>
      );
    case 'ppt':
      // a slide on its stand with a chart
      return (
        <g {...common} strokeWidth={2}>
          <rect x="13" y="14.5" width="22" height="15" rx="1.6" />
          <path d="M24 29.5V34M19.5 34h9M18 25.5v-3M22.5 25.5v-6M27 25.5v-4.5M31 25.5v-7.5" />
        </g>
      );
    case 'pdf':
      // a bound page with its corner turned
      return (
        <g {...common} strokeWidth={2}>
          <path d="M16 14.5h11l5 5V33.5H16z" />
          <path d="M27 14.5v5h5M19.5 24h9M19.5 28.5h9" />
        </g>
      );
    case 'markdown':
      // M and a down arrow
      return (
        <g {...common}>
          <path d="M13 30V18l5 6 5-6v12M30 18v11.5M26.5 26l3.5 3.8 3.5-3.8" />
        </g>
      );
    case 'code':
      return (
        <g {...common}>
          <path d="M18.5 18.5L13.5 24l5 5.5M29.5 18.5l5 5.5-5 5.5" />
        </g>
      );
    case 'mind':
      return (
        <g {...common}>
          <circle cx="18" cy="24" r="2.5" fill="#fff" stroke="none" />
          <path d="M20.5 24h4M24.5 17.5v13M24.5 17.5h5M24.5 24h5M24.5 30.5h5" />
        </g>
      );
    case 'drawio':
      return (
        <g fill="#fff">
          <rect x="21" y="14" width="7" height="6" rx="1.2" />
          <rect x="14" y="27" width="7" height="6" rx="1.2" />
          <rect x="27" y="27" width="7" height="6" rx="1.2" />
          <path d="M24.5 20v3.5M17.5 27v-3.5h14V27" stroke="#fff" strokeWidth="1.8" fill="none" />
        </g>
      );
    default:
      return (
        <g {...common} strokeWidth={2}>
          <path d="M15 18h18M15 23.5h18M15 29h11" />
        </g>
      );
  }
}

interface FileIconProps {
  item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'> & Partial<Pick<FileItem, 'mount'>>;
  size?: number;
  /** Draw the extension label (legible from about 40 px). */
  label?: boolean;
}

/** The type icon of a file or folder, drawn by Nimbus (spec §5 "type icons per file type"). */
export const FileIcon = memo(function FileIcon({
  item,
  size = 24,
  label = size >= 40,
}: FileIconProps) {
  const kind = iconKindOf(item);
  if (kind === 'folder') {
    return (
      <svg
        className="nb-icon nb-icon--folder"
        data-kind="folder"
        width={size}
        height={size}
        viewBox="0 0 48 48"
        aria-hidden="true"
      >
        <path
          d="M4 12.5A3.5 3.5 0 0 1 7.5 9h11.2c1 0 1.9.4 2.5 1.1L24 13h16.5a3.5 3.5 0 0 1 3.5 3.5V36a3.5 3.5 0 0 1-3.5 3.5h-33A3.5 3.5 0 0 1 4 36z"
          fill="#f3b32c"
        />
        <path
          d="M4 18.5A3.5 3.5 0 0 1 7.5 15h33a3.5 3.5 0 0 1 3.5 3.5V36a3.5 3.5 0 0 1-3.5 3.5h-33A3.5 3.5 0 0 1 4 36z"
          fill="#fcc94a"
        />
        <path
          d="M4 18.5A3.5 3.5 0 0 1 7.5 15h33a3.5 3.5 0 0 1 3.5 3.5v1H4z"
          fill="#fff"
          opacity="0.28"
        />
        {item.mount ? (
          // a mount: someone's shared folder, linked into this drive
          <g className="nb-icon__mount">
            <circle cx="36.5" cy="35" r="10" fill="#2f6fed" stroke="#fff" strokeWidth="2" />
            <g
              fill="none"
              stroke="#fff"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="M34.8 36.7l3.4-3.4" />
              <path d="M35.9 31.9l1.2-1.2a2.6 2.6 0 0 1 3.7 3.7l-1.2 1.2" />
              <path d="M37.1 38.1l-1.2 1.2a2.6 2.6 0 0 1-3.7-3.7l1.2-1.2" />
            </g>
          </g>
        ) : null}
      </svg>
    );
  }
  const color = COLORS[kind];
  const text = label ? iconLabelOf(item) : '';
  // plain text and unknown files show their extension alone: lines would say nothing more
  const showGlyph = !text || !['text', 'other'].includes(kind);
  return (
    <svg
      className={`nb-icon nb-icon--${kind}`}
      data-kind={kind}
      width={size}
      height={size}
      viewBox="0 0 48 48"
      aria-hidden="true"
    >
      <path
        d="M10.5 3h18.3c.9 0 1.8.4 2.5 1l8.7 8.7c.6.7 1 1.6 1 2.5v26.3a3.5 3.5 0 0 1-3.5 3.5h-27A3.5 3.5 0 0 1 7 41.5v-35A3.5 3.5 0 0 1 10.5 3z"
        fill={color}
      />
      <path d="M29 3.2V11a3 3 0 0 0 3 3h7.8z" fill="#fff" opacity="0.42" />
      {showGlyph ? (
        <g transform={text ? 'translate(24 19) scale(0.78) translate(-24 -24)' : undefined}>
          <Glyph kind={kind} />
        </g>
      ) : null}
      {text ? (
        <text
          x="24"
          y={showGlyph ? 38 : 31}
          textAnchor="middle"
          fontSize={text.length > 3 ? 8.6 : 10}
          fontWeight="700"
          fill="#fff"
          fontFamily="ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"
          letterSpacing="0.3"
        >
          {text}
        </text>
      ) : null}
    </svg>
  );
});
