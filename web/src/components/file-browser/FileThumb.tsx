import { useState } from 'react';
import { coverIsPage } from '../../actions/thumbnails';
import type { CollectionItem } from './collection-types';
import { FileIcon } from '../FileIcon';

/**
 * An item's picture where `src` gives one (its thumbnail), else its icon. The icon shows until
 * the picture has come (a document's first page can take seconds to draw), and stays when
 * there is none.
 */
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
  const [loaded, setLoaded] = useState<string | null>(null);
  const url = src && !failed ? src(item) : null;
  const ready = url !== null && loaded === url;
  return (
    <>
      {ready ? null : <FileIcon item={item} size={size} />}
      {url ? (
        <img
          // a page shows whole, as a sheet of paper; a photo or a cover fills the square
          className={`nb-thumb${coverIsPage(item) ? ' nb-thumb--page' : ''}${ready ? '' : ' is-loading'}`}
          src={url}
          alt=""
          width={size}
          height={size}
          loading="lazy"
          decoding="async"
          draggable={false}
          data-testid="file-thumb"
          onLoad={() => setLoaded(url)}
          onError={() => setFailed(true)}
        />
      ) : null}
    </>
  );
}
