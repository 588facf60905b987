import { DEFAULT_TAG_COLOR, type TagItem } from '@nimbus/contract';
import { memo } from 'react';

/** Black or white, whichever reads better on a tag's colour (`#rgb`, `#rrggbb`, `#rrggbbaa`). */
export function inkOn(color: string): '#000' | '#fff' {
  let hex = color.replace('#', '');
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}/i.test(hex)) return '#fff';
  const channel = (at: number) => parseInt(hex.slice(at, at + 2), 16);
  // perceived brightness (YIQ): white text down to mid tones, as tag colours are usually strong
  const brightness = (channel(0) * 299 + channel(2) * 587 + channel(4) * 114) / 1000;
  return brightness >= 150 ? '#000' : '#fff';
}

/**
 * An item's tags as small chips in their colours: the first `max`, then "+N" for the rest
 * (its title names them). Plain spans: rows mount while scrolling.
 */
export const TagChips = memo(function TagChips({
  tags,
  max,
  className,
}: {
  tags: readonly TagItem[] | undefined;
  max: number;
  className: string;
}) {
  if (!tags?.length) return null;
  const shown = tags.slice(0, max);
  const rest = tags.slice(max);
  return (
    <span
      className={`nb-tags ${className}${rest.length ? ' has-more' : ''}`}
      data-testid="item-tags"
    >
      {shown.map((tag) => {
        const color = tag.color || DEFAULT_TAG_COLOR;
        return (
          <span
            key={tag.id}
            className="nb-tags__chip"
            style={{ background: color, color: inkOn(color) }}
            title={tag.name}
            data-testid="item-tag"
          >
            {tag.name}
          </span>
        );
      })}
      {rest.length ? (
        <span
          className="nb-tags__chip nb-tags__more"
          title={rest.map((tag) => tag.name).join(', ')}
          data-testid="item-tags-more"
        >
          +{rest.length}
        </span>
      ) : null}
    </span>
  );
});
