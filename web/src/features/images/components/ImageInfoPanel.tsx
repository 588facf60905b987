import { useQuery } from '@tanstack/react-query';
import { imagesApi, imagesVisitorApi, type Envelope, type ImageFacts } from '@nimbus/contract';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import type { PreviewItem, PreviewSource } from '../../../actions/viewers';

async function fetchFacts(
  source: PreviewSource,
  item: Pick<PreviewItem, 'id'>,
  signal: AbortSignal,
): Promise<ImageFacts | null> {
  const res = await fetch(
    source.api(
      { owner: imagesApi.imageInfo, visitor: imagesVisitorApi.imageInfo },
      { id: item.id },
    ),
    {
      headers: source.headers(),
      signal,
    },
  );
  const body = (await res.json()) as Envelope<ImageFacts | null>;
  if (body.code !== 0) throw new Error(body.message);
  return body.data ?? null;
}

/** `1/250 s` for short exposures, `2.5 s` for long ones. */
const exposure = (seconds: number) =>
  seconds < 1 ? `1/${Math.round(1 / seconds)} s` : `${Number(seconds.toFixed(1))} s`;

/** What the photo says about itself: its size as shown and what its camera recorded. */
export function ImageFactsList({
  item,
  source,
  classes,
}: {
  item: Pick<PreviewItem, 'id' | 'size' | 'updateDate'>;
  source: PreviewSource;
  /** The host's list and row classes (the details drawer's). */
  classes?: { list: string; row: string };
}) {
  const { t } = useTranslation('images');
  const facts = useQuery({
    queryKey: ['images', 'info', source.kind, item.id, item.updateDate],
    queryFn: ({ signal }) => fetchFacts(source, item, signal),
    staleTime: 60_000,
    retry: false,
  });
  const data = facts.data;
  if (facts.isPending) return <Spin size="small" />;
  if (!data) return <p>{t('facts.none')}</p>;
  const exif = data.exif;
  const rows: Array<[string, string | undefined]> = [
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
  ];
  return (
    <dl className={classes?.list} data-testid="image-facts">
      {rows
        .filter((row): row is [string, string] => Boolean(row[1]))
        .map(([label, value]) => (
          <div key={label} className={classes?.row}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** The gallery's details panel. */
export function ImageInfoPanel({ item, source }: { item: PreviewItem; source: PreviewSource }) {
  const { t } = useTranslation('images');
  return (
    <aside
      className="nb-gallery-info"
      data-testid="image-info"
      onPointerDown={(e) => e.stopPropagation()}
    >
      <h3>{t('info')}</h3>
      <ImageFactsList item={item} source={source} />
    </aside>
  );
}
