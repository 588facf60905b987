import { useState } from 'react';
import { isViewableImage } from '../file-kinds';
import type { CollectionItem } from './collection-types';
import { FileIcon } from './FileIcon';

/** Image files small enough to draw as their own thumbnail (the server has no thumbnails yet). */
const THUMBNAIL_MAX_BYTES = 12 * 1024 * 1024;

/** An image's own picture where `src` says where it is, else the item's icon. */
export function FileThumb<T extends CollectionItem>({
  item,
  size,
  src,
}: {
  item: T;
  size: number;
  /** Where the picture of an image is; null draws the icon. */
  src: ((item: T) => string) | null;
}) {
  const [failed, setFailed] = useState(false);
  if (
    src &&
    !failed &&
    isViewableImage(item) &&
    item.size > 0 &&
    item.size <= THUMBNAIL_MAX_BYTES
  ) {
    return (
      <img
        className="nb-thumb"
        src={src(item)}
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
