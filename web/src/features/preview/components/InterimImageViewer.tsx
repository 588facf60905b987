import { Image } from 'antd';
import { useMemo } from 'react';
import { isViewableImage } from '../../files/file-kinds';
import type { ViewerProps } from '../registry';

/** The folder's images one by one (zoom, rotate, previous, next) until the gallery viewer lands. */
export default function InterimImageViewer({
  item,
  siblings,
  source,
  onSelect,
  onClose,
}: ViewerProps) {
  const images = useMemo(() => {
    const found = siblings.filter(isViewableImage);
    return found.some((image) => image.id === item.id) ? found : [item];
  }, [siblings, item]);
  const index = Math.max(
    0,
    images.findIndex((image) => image.id === item.id),
  );
  return (
    <div data-testid="image-viewer" hidden>
      <Image.PreviewGroup
        items={images.map((image) => ({ src: source.bytesUrl(image), alt: image.name }))}
        preview={{
          open: true,
          current: index,
          onChange: (next) => {
            const image = images[next];
            if (image) onSelect(image);
          },
          onOpenChange: (open) => {
            if (!open) onClose();
          },
          countRender: (n, total) => `${images[n - 1]?.name ?? ''} · ${n} / ${total}`,
        }}
      />
    </div>
  );
}
