import { DEFAULT_TAG_COLOR } from '@nimbus/contract';
import { App, Modal, Select, Tag as TagChip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFileTags, useSetFileTags, useTags, type Tag } from '../api';
import { tagErrorMessage, tagNameError } from '../rules';
import type { TagTarget } from '../tag-dialog-store';

interface TagFilesDialogProps {
  targets: TagTarget[];
  onClose: () => void;
}

/** Tags of one or more files: pick existing tags, type new ones (created on save). */
function TagFilesForm({ targets, onClose }: TagFilesDialogProps) {
  const { t } = useTranslation('tags');
  const { message } = App.useApp();
  const ids = useMemo(() => targets.map((target) => target.id), [targets]);
  const { data: tags = [] } = useTags();
  const current = useFileTags(ids);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const setFileTags = useSetFileTags();

  // what the files have now: every tag any of them has
  const initial = useMemo(() => {
    const seen = new Set<string>();
    for (const list of Object.values(current.data ?? {})) for (const tag of list) seen.add(tag.id);
    return [...seen];
  }, [current.data]);
  const value = chosen ?? initial;
  const byId = useMemo(() => new Map(tags.map((tag) => [tag.id, tag])), [tags]);

  const check = (values: string[]): string | null => {
    for (const v of values) {
      if (byId.has(v)) continue;
      const problem = tagNameError(t, v);
      if (problem) return problem;
    }
    return null;
  };

  const save = async () => {
    const problem = check(value);
    setError(problem);
    if (problem) return;
    try {
      await setFileTags.mutateAsync({
        fileIds: ids,
        tagList: value.map((v) => (byId.has(v) ? { id: v } : { name: v.trim() })),
        removeTagIds: initial.filter((id) => !value.includes(id)),
      });
      void message.success(t('dialog.saved'));
      onClose();
    } catch (err) {
      setError(tagErrorMessage(t, err));
    }
  };

  const title =
    targets.length === 1
      ? t('dialog.title', { name: targets[0]!.name })
      : t('dialog.titleMany', { count: targets.length });

  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={setFileTags.isPending}
      okButtonProps={{ disabled: current.isPending, 'data-testid': 'tag-dialog-save' }}
      destroyOnHidden
      data-testid="tag-dialog"
    >
      <div className="nb-tag-dialog" data-testid="tag-dialog-body">
        <label className="nb-tag-dialog__label" htmlFor="nb-tag-select">
          {t('dialog.label')}
        </label>
        <Select<string[]>
          id="nb-tag-select"
          mode="tags"
          style={{ width: '100%' }}
          value={value}
          loading={current.isPending}
          placeholder={t('dialog.placeholder')}
          onChange={(next) => {
            setChosen(next);
            setError(check(next));
          }}
          onBlur={() => setError(check(value))}
          status={error ? 'error' : undefined}
          tokenSeparators={[',', '，']}
          options={tags.map((tag: Tag) => ({ value: tag.id, label: tag.name }))}
          optionFilterProp="label"
          tagRender={({ value: v, closable, onClose: remove }) => {
            const tag = byId.get(String(v));
            return (
              <TagChip
                color={tag?.color || DEFAULT_TAG_COLOR}
                closable={closable}
                onClose={remove}
                onMouseDown={(e) => e.preventDefault()}
                style={{ marginInlineEnd: 4 }}
              >
                {tag?.name ?? String(v)}
              </TagChip>
            );
          }}
          data-testid="tag-dialog-select"
        />
        {error ? (
          <div className="nb-form-error" role="alert" data-testid="tag-dialog-error">
            {error}
          </div>
        ) : null}
        <div className="nb-tag-dialog__hint">
          {targets.length > 1 ? t('dialog.many', { count: targets.length }) : t('dialog.hint')}
        </div>
      </div>
    </Modal>
  );
}

export function TagFilesDialog({ targets, onClose }: TagFilesDialogProps) {
  if (targets.length === 0) return null;
  // a fresh form for every opening
  return (
    <TagFilesForm key={targets.map((x) => x.id).join(',')} targets={targets} onClose={onClose} />
  );
}
