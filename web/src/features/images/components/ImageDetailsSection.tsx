import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ownerSource } from '../../../actions/preview-sources';
import type { PreviewItem } from '../../../actions/viewers';
import { isGalleryImage } from '../../../actions/thumbnails';
import { ImageFactsList } from './ImageInfoPanel';

/** The details drawer's part for a photo of one's own drive: its size as shown and its EXIF. */
export function ImageDetailsSection({
  file,
}: {
  file: Pick<PreviewItem, 'id' | 'name' | 'suffix' | 'isFolder' | 'size' | 'updateDate'>;
}) {
  const { t } = useTranslation('images');
  const source = useMemo(() => ownerSource(), []);
  if (!isGalleryImage(file)) return null;
  return (
    <section className="nb-details__image" data-testid="details-image">
      <h4 style={{ margin: '16px 0 8px' }}>{t('photo')}</h4>
      <ImageFactsList
        item={file}
        source={source}
        classes={{ list: 'nb-details__list', row: 'nb-details__row' }}
      />
    </section>
  );
}
