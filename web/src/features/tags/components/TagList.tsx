import { DEFAULT_TAG_COLOR } from '@nimbus/contract';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useTags } from '../api';

/** Sidebar tag list (spec §2): renders nothing until the user has tags. */
export function TagList() {
  const { t } = useTranslation('tags');
  const { data: tags } = useTags();
  const [params] = useSearchParams();
  if (!tags?.length) return null;
  const current = params.get('tagId');
  return (
    <nav className="nb-tags" aria-label={t('title')} data-testid="sidebar-tags">
      <div className="nb-tags__title">{t('title')}</div>
      {tags.map((tag) => {
        const id = tag.tagId ?? tag.id;
        return (
          <Link
            key={id}
            to={`/tag?tagId=${encodeURIComponent(id)}`}
            className="nb-tags__item"
            aria-current={current === id ? 'page' : undefined}
          >
            <span className="nb-tags__dot" style={{ background: tag.color || DEFAULT_TAG_COLOR }} />
            <span>{tag.name}</span>
          </Link>
        );
      })}
    </nav>
  );
}
