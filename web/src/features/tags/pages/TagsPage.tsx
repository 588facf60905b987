import { TagsOutlined } from '@ant-design/icons';
import { DEFAULT_TAG_COLOR } from '@nimbus/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FilesView } from '../../files/components/FilesView';
import { useTags } from '../api';

/** /tag lists the user's tags; /tag?tagId= shows the files with that tag. */
export function TagsPage() {
  const { t } = useTranslation('tags');
  const [params] = useSearchParams();
  const { data: tags } = useTags();
  const tagId = params.get('tagId');
  if (tagId || !tags?.length) return <FilesView key={tagId ?? 'tags'} kind="tag" />;
  return (
    <section className="nb-files" data-testid="tags-page">
      <div className="nb-files__toolbar">
        <div className="nb-files__crumb">
          <TagsOutlined />
          <strong>{t('title')}</strong>
        </div>
      </div>
      <div style={{ padding: 16, display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        {tags.map((tag) => {
          const id = tag.tagId ?? tag.id;
          return (
            <Link key={id} to={`/tag?tagId=${encodeURIComponent(id)}`}>
              <Tag
                color={tag.color || DEFAULT_TAG_COLOR}
                style={{ fontSize: 14, padding: '4px 12px' }}
              >
                {tag.name}
              </Tag>
            </Link>
          );
        })}
      </div>
    </section>
  );
}
