import { useState } from 'react';
import { coverIsPage } from '../../images/thumbnails';
import type { CollectionItem } from './collection-types';
import { FileIcon } from './FileIcon';

/** An item's picture where `src` gives one (its thumbnail), else its icon. */
export function FileThumb<T extends CollectionItem>({
  item,
  size,
  src,
}: {
  item: T;
  size: number;
  /** Where the item's thumbnail is (null when it has none); null draws icons only. */
  src: ((item: T) => string | null) | null;
}) {
  const [failed, setFailed] = useState(false);
  const url = src && !failed ? src(item) : null;
  if (url) {
    return (
      <img
        // a page shows whole, as a sheet of paper; a photo or a cover fills the square
        className={coverIsPage(item) ? 'nb-thumb nb-thumb--page' : 'nb-thumb'}
        src={url}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setFailed(true)}
      />
    );
  }
  return <FileIcon item={item} size={size} />;
}
