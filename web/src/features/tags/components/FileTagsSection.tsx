import { EditOutlined } from '@ant-design/icons';
import { DEFAULT_TAG_COLOR } from '@nimbus/contract';
import { Button, Tag as TagChip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFileTags } from '../api';
import { openTagDialog } from '../tag-dialog-store';

/** The tags of one file in the details drawer, with a way to change them. */
export function FileTagsSection({ file }: { file: { id: string; name: string } }) {
  const { t } = useTranslation('tags');
  const { data } = useFileTags([file.id]);
  const tags = data?.[file.id] ?? [];
  return (
    <div className="nb-file-tags" data-testid="details-tags">
      <div className="nb-file-tags__head">
        <span>{t('details.title')}</span>
        <Button
          type="link"
          size="small"
          icon={<EditOutlined />}
          onClick={() => openTagDialog([file])}
          data-testid="details-tags-edit"
        >
          {t('details.edit')}
        </Button>
      </div>
      <div className="nb-file-tags__list">
        {tags.length === 0 ? (
          <span className="nb-file-tags__none">{t('details.none')}</span>
        ) : (
          tags.map((tag) => (
            <Link key={tag.id} to={`/tag?tagId=${encodeURIComponent(tag.id)}`}>
              <TagChip color={tag.color || DEFAULT_TAG_COLOR}>{tag.name}</TagChip>
            </Link>
          ))
        )}
      </div>
    </div>
  );
}
