import type { PublicFileView } from '@nimbus/contract';
import { Image } from 'antd';

interface ShareImageViewerProps {
  /** The folder's images, in order; arrows step through them. */
  images: PublicFileView[];
  /** The one shown; null closes the viewer. */
  current: string | null;
  onChange: (id: string | null) => void;
  src: (image: PublicFileView) => string;
}

/** The shared folder's images one by one: zoom, rotate, previous and next. */
export function ShareImageViewer({ images, current, onChange, src }: ShareImageViewerProps) {
  const index = current ? images.findIndex((image) => image.id === current) : -1;
  if (index === -1) return null;
  return (
    <div hidden data-testid="share-image-viewer">
      <Image.PreviewGroup
        items={images.map((image) => ({ src: src(image), alt: image.name }))}
        preview={{
          open: true,
          current: index,
          onChange: (next) => onChange(images[next]?.id ?? null),
          onOpenChange: (visible) => {
            if (!visible) onChange(null);
          },
          countRender: (n, total) => `${images[n - 1]?.name ?? ''} · ${n} / ${total}`,
        }}
      />
    </div>
  );
}
