import { useState } from 'react';
import { fileUrl } from '../api';
import { isViewableImage } from '../file-kinds';
import type { FileItem } from '../types';
import { FileIcon } from './FileIcon';

/** Image files small enough to draw as their own thumbnail (the server has no thumbnails yet). */
const THUMBNAIL_MAX_BYTES = 12 * 1024 * 1024;

export function FileThumb({
  item,
  size,
  thumbnails,
}: {
  item: FileItem;
  size: number;
  thumbnails: boolean;
}) {
  const [failed, setFailed] = useState(false);
  if (
    thumbnails &&
    !failed &&
    isViewableImage(item) &&
    item.size > 0 &&
    item.size <= THUMBNAIL_MAX_BYTES
  ) {
    return (
      <img
        className="nb-thumb"
        src={fileUrl(item)}
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
