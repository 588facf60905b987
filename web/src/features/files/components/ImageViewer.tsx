import { Image } from 'antd';
import { useMemo } from 'react';
import { fileUrl } from '../api';
import type { FileItem } from '../types';

interface ImageViewerProps {
  /** The images of the view, in order; arrows step through them. */
  images: FileItem[];
  /** The one to show; null closes the viewer. */
  current: string | null;
  onChange: (id: string | null) => void;
}

/** A simple viewer over the folder's images: zoom, rotate, previous and next. */
export function ImageViewer({ images, current, onChange }: ImageViewerProps) {
  const items = useMemo(
    () => images.map((image) => ({ src: fileUrl(image), alt: image.name })),
    [images],
  );
  const index = current ? images.findIndex((image) => image.id === current) : -1;
  if (index === -1) return null;
  return (
    <div data-testid="image-viewer" hidden>
      <Image.PreviewGroup
        items={items}
        preview={{
          open: true,
          current: index,
          onChange: (next) => onChange(images[next]?.id ?? null),
          onOpenChange: (open) => {
            if (!open) onChange(null);
          },
          countRender: (n, total) => `${images[n - 1]?.name ?? ''} · ${n} / ${total}`,
        }}
      />
    </div>
  );
}
