import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  HolderOutlined,
  PlusOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import { DEFAULT_TAG_COLOR, TAG_NAME_MAX_LENGTH } from '@nimbus/contract';
import { App, Button, ColorPicker, Input, Skeleton, Tooltip } from 'antd';
import { useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { useDeleteTags, useSaveTag, useSortTags, useTags, type Tag } from '../api';
import { tagErrorMessage, tagNameError } from '../rules';
import '../tags.css';

interface TagEditorProps {
  initial?: Tag;
  others: Tag[];
  onDone: () => void;
}

/** Name and colour of a tag; the name rules (spec §5) are checked on blur and on save. */
function TagEditor({ initial, others, onDone }: TagEditorProps) {
  const { t } = useTranslation('tags');
  const { message } = App.useApp();
  const [name, setName] = useState(initial?.name ?? '');
  const [color, setColor] = useState(initial?.color ?? DEFAULT_TAG_COLOR);
  const [error, setError] = useState<string | null>(null);
  const saveTag = useSaveTag();
  const check = () => tagNameError(t, name, others);

  const save = async () => {
    const problem = check();
    setError(problem);
    if (problem) return;
    try {
      await saveTag.mutateAsync({ id: initial?.id, name: name.trim(), color });
      void message.success(t(initial ? 'modified' : 'added'));
      onDone();
    } catch (err) {
      setError(tagErrorMessage(t, err));
    }
  };

  return (
    <div className="nb-tag-editor" data-testid={initial ? 'tag-edit-form' : 'tag-add-form'}>
      <ColorPicker
        value={color}
        onChangeComplete={(c) => setColor(c.toHexString())}
        presets={[
          {
            label: t('color'),
            colors: [
              DEFAULT_TAG_COLOR,
              '#e6a23c',
              '#67c23a',
              '#409eff',
              '#909399',
              '#9b59b6',
              '#16a085',
              '#2c3e50',
            ],
          },
        ]}
        aria-label={t('color')}
        data-testid="tag-color"
      />
      <div className="nb-tag-editor__field">
        <Input
          autoFocus
          value={name}
          maxLength={TAG_NAME_MAX_LENGTH * 2}
          placeholder={t('namePlaceholder')}
          aria-label={t('name')}
          status={error ? 'error' : undefined}
          onChange={(e) => {
            setName(e.target.value);
            if (error) setError(null);
          }}
          onBlur={() => setError(check())}
          onPressEnter={() => void save()}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onDone();
          }}
          data-testid="tag-name-input"
        />
        {error ? (
          <div className="nb-form-error" role="alert" data-testid="tag-name-error">
            {error}
          </div>
        ) : null}
      </div>
      <Button
        type="primary"
        loading={saveTag.isPending}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => void save()}
        data-testid="tag-save"
      >
        {t('save')}
      </Button>
      <Button onMouseDown={(e) => e.preventDefault()} onClick={onDone}>
        {t('cancel')}
      </Button>
    </div>
  );
}

/** Tag management (spec §2 Screens): name, colour, drag ordering, delete. */
function TagManager() {
  const { t } = useTranslation('tags');
  const { message, modal } = App.useApp();
  const { data: tags = [], isPending } = useTags();
  const sortTags = useSortTags();
  const deleteTags = useDeleteTags();
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);

  const reorder = (ids: string[]) =>
    sortTags.mutate(ids, {
      onSuccess: () => void message.success(t('orderUpdated')),
      onError: (err) => void message.error(tagErrorMessage(t, err)),
    });

  const move = (id: string, to: number) => {
    const ids = tags.map((tag) => tag.id).filter((x) => x !== id);
    ids.splice(Math.max(0, Math.min(ids.length, to)), 0, id);
    reorder(ids);
  };

  const onDrop = (event: DragEvent, target: string) => {
    event.preventDefault();
    const source = dragged ?? event.dataTransfer.getData('text/plain');
    setDragged(null);
    setOver(null);
    if (!source || source === target) return;
    move(
      source,
      tags.findIndex((tag) => tag.id === target),
    );
  };

  const remove = (tag: Tag) => {
    modal.confirm({
      title: t('deleteTitle', { name: tag.name }),
      content: t('deleteConfirm'),
      okText: t('delete'),
      okButtonProps: { danger: true, 'data-testid': 'tag-delete-confirm' },
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          await deleteTags.mutateAsync([tag.id]);
          void message.success(t('deleted'));
        } catch (err) {
          void message.error(tagErrorMessage(t, err));
        }
      },
    });
  };

  return (
    <section className="nb-tags-page" data-testid="tags-page">
      <header className="nb-tags-page__head">
        <TagsOutlined />
        <h1>{t('title')}</h1>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setAdding(true);
            setEditing(null);
          }}
          data-testid="tag-add"
        >
          {t('add')}
        </Button>
      </header>
      {adding ? <TagEditor others={tags} onDone={() => setAdding(false)} /> : null}
      {isPending ? (
        <Skeleton active />
      ) : tags.length === 0 ? (
        adding ? null : (
          <EmptyState
            icon={<TagsOutlined />}
            title={t('empty')}
            description={t('emptyHint')}
            testId="tags-empty"
          />
        )
      ) : (
        <ul className="nb-tag-rows" data-testid="tag-rows">
          {tags.map((tag, index) =>
            editing === tag.id ? (
              <li key={tag.id} className="nb-tag-row nb-tag-row--editing">
                <TagEditor
                  initial={tag}
                  others={tags.filter((other) => other.id !== tag.id)}
                  onDone={() => setEditing(null)}
                />
              </li>
            ) : (
              <li
                key={tag.id}
                className={`nb-tag-row${over === tag.id && dragged !== tag.id ? ' is-over' : ''}${dragged === tag.id ? ' is-dragged' : ''}`}
                draggable
                onDragStart={(event) => {
                  setDragged(tag.id);
                  event.dataTransfer.effectAllowed = 'move';
                  event.dataTransfer.setData('text/plain', tag.id);
                }}
                onDragOver={(event) => {
                  event.preventDefault();
                  event.dataTransfer.dropEffect = 'move';
                  setOver(tag.id);
                }}
                onDragLeave={() => setOver((o) => (o === tag.id ? null : o))}
                onDragEnd={() => {
                  setDragged(null);
                  setOver(null);
                }}
                onDrop={(event) => onDrop(event, tag.id)}
                data-testid="tag-row"
                data-tag={tag.name}
              >
                <Tooltip title={t('drag')}>
                  <HolderOutlined className="nb-tag-row__handle" aria-label={t('drag')} />
                </Tooltip>
                <span
                  className="nb-tag-row__dot"
                  style={{ background: tag.color || DEFAULT_TAG_COLOR }}
                />
                <Link
                  to={`/tag?tagId=${encodeURIComponent(tag.id)}`}
                  className="nb-tag-row__name"
                  title={t('showFiles')}
                  data-testid="tag-row-link"
                >
                  {tag.name}
                </Link>
                <span className="nb-tag-row__actions">
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    disabled={index === 0}
                    aria-label={t('moveUp')}
                    title={t('moveUp')}
                    onClick={() => move(tag.id, index - 1)}
                  />
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    disabled={index === tags.length - 1}
                    aria-label={t('moveDown')}
                    title={t('moveDown')}
                    onClick={() => move(tag.id, index + 1)}
                  />
                  <Button
                    type="text"
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={t('edit')}
                    title={t('edit')}
                    onClick={() => {
                      setEditing(tag.id);
                      setAdding(false);
                    }}
                    data-testid="tag-edit"
                  />
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('delete')}
                    title={t('delete')}
                    onClick={() => remove(tag)}
                    data-testid="tag-delete"
                  />
                </span>
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}

/**
 * /tag manages the user's tags; /tag?tagId= lists the files with that tag in the file browser,
 * which app/ hands in (the router).
 */
export function TagsPage({ filesOfTag }: { filesOfTag: (tagId: string) => ReactNode }) {
  const [params] = useSearchParams();
  const tagId = params.get('tagId');
  if (tagId) return filesOfTag(tagId);
  return <TagManager />;
}
