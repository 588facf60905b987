import { useQuery } from '@tanstack/react-query';
import type { Envelope, ImageFacts } from '@nimbus/contract';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import type { PreviewItem, PreviewSource } from '../../preview/registry';

async function fetchFacts(
  source: PreviewSource,
  item: PreviewItem,
  signal: AbortSignal,
): Promise<ImageFacts | null> {
  const res = await fetch(source.api('/view/image/info', { id: item.id }), {
    headers: source.headers(),
    signal,
  });
  const body = (await res.json()) as Envelope<ImageFacts | null>;
  if (body.code !== 0) throw new Error(body.message);
  return body.data ?? null;
}

/** `1/250 s` for short exposures, `2.5 s` for long ones. */
const exposure = (seconds: number) =>
  seconds < 1 ? `1/${Math.round(1 / seconds)} s` : `${Number(seconds.toFixed(1))} s`;

/** What the photo says about itself: its size as shown and what its camera recorded. */
export function ImageInfoPanel({ item, source }: { item: PreviewItem; source: PreviewSource }) {
  const { t } = useTranslation('images');
  const facts = useQuery({
    queryKey: ['images', 'info', source.kind, item.id, item.updateDate],
    queryFn: ({ signal }) => fetchFacts(source, item, signal),
    staleTime: 60_000,
    retry: false,
  });
  const data = facts.data;
  const exif = data?.exif;
  const rows: Array<[string, string | undefined]> = data
    ? [
        [t('facts.dimensions'), `${data.width} × ${data.height}`],
        [t('facts.format'), data.format.toUpperCase()],
        [t('facts.size'), formatSize(item.size)],
        [t('facts.camera'), [exif?.make, exif?.model].filter(Boolean).join(' ') || undefined],
        [t('facts.lens'), exif?.lens],
        [t('facts.takenAt'), exif?.takenAt],
        [t('facts.exposure'), exif?.exposureTime ? exposure(exif.exposureTime) : undefined],
        [t('facts.aperture'), exif?.fNumber ? `f/${exif.fNumber}` : undefined],
        [t('facts.iso'), exif?.iso ? String(exif.iso) : undefined],
        [t('facts.focalLength'), exif?.focalLength ? `${exif.focalLength} mm` : undefined],
        [t('facts.software'), exif?.software],
      ]
    : [];
  return (
    <aside
      className="nb-gallery-info"
      data-testid="image-info"
      onPointerDown={(e) => e.stopPropagation()}
    >
      <h3>{t('info')}</h3>
      {facts.isPending ? (
        <Spin size="small" />
      ) : !data ? (
        <p>{t('facts.none')}</p>
      ) : (
        <dl>
          {rows
            .filter((row): row is [string, string] => Boolean(row[1]))
            .map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
        </dl>
      )}
    </aside>
  );
}
