import { Button, Checkbox, Divider, InputNumber, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../../api/account';
import {
  DATE_SHORTCUTS,
  DEFAULT_OPTIONS,
  SEARCH_TYPES,
  type DateShortcut,
  type SearchOptions,
  type SearchType,
} from '../options';

interface SearchOptionsPanelProps {
  value: SearchOptions;
  onApply: (options: SearchOptions) => void;
}

/** The advanced options of a search (API-NOTES §3 SearchOption). */
export function SearchOptionsPanel({ value, onApply }: SearchOptionsPanelProps) {
  const { t } = useTranslation('search');
  const { data: user } = useUserInfo();
  const [draft, setDraft] = useState<SearchOptions>(value);
  const set = (change: Partial<SearchOptions>) => setDraft((d) => ({ ...d, ...change }));
  const nothing = !draft.includeName && !draft.includeTag && !draft.includeContent;
  // exact matching is offered only when the drive allows it
  const exactAllowed = user?.exactSearch !== false;

  return (
    <div className="nb-search-options" data-testid="search-options">
      <label className="nb-search-options__row">
        <span>{t('option.type')}</span>
        <Select<SearchType | ''>
          size="small"
          value={draft.type ?? ''}
          onChange={(v) => set({ type: v || undefined })}
          options={[
            { value: '', label: t('option.anyType') },
            ...SEARCH_TYPES.map((type) => ({ value: type, label: t(`option.types.${type}`) })),
          ]}
          data-testid="search-option-type"
          popupMatchSelectWidth={false}
        />
      </label>
      <label className="nb-search-options__row">
        <span>{t('option.modified')}</span>
        <Select<DateShortcut | ''>
          size="small"
          value={draft.date ?? ''}
          onChange={(v) => set({ date: v || undefined })}
          options={[
            { value: '', label: t('option.anyTime') },
            ...DATE_SHORTCUTS.map((d) => ({ value: d, label: t(`option.dates.${d}`) })),
          ]}
          data-testid="search-option-date"
          popupMatchSelectWidth={false}
        />
      </label>
      <div className="nb-search-options__row">
        <span>{t('option.size')}</span>
        <span className="nb-search-options__range">
          <InputNumber
            size="small"
            min={0}
            value={draft.sizeMin ?? null}
            placeholder={t('option.sizeMin')}
            aria-label={t('option.sizeMin')}
            onChange={(v) => set({ sizeMin: v ?? undefined })}
            data-testid="search-option-size-min"
          />
          –
          <InputNumber
            size="small"
            min={0}
            value={draft.sizeMax ?? null}
            placeholder={t('option.sizeMax')}
            aria-label={t('option.sizeMax')}
            onChange={(v) => set({ sizeMax: v ?? undefined })}
            data-testid="search-option-size-max"
          />
        </span>
      </div>
      <Divider size="small" />
      <label className="nb-search-options__row">
        <span>{t('option.wholeDrive')}</span>
        <Switch
          size="small"
          checked={draft.wholeDrive}
          onChange={(v) => set({ wholeDrive: v })}
          data-testid="search-option-whole-drive"
        />
      </label>
      {exactAllowed ? (
        <label className="nb-search-options__row">
          <span>{t('option.exact')}</span>
          <Switch
            size="small"
            checked={draft.exact}
            onChange={(v) => set({ exact: v })}
            data-testid="search-option-exact"
          />
        </label>
      ) : null}
      <div className="nb-search-options__row nb-search-options__row--stack">
        <span>{t('option.include')}</span>
        <span className="nb-search-options__checks">
          <Checkbox
            checked={draft.includeName}
            onChange={(e) => set({ includeName: e.target.checked })}
            data-testid="search-option-name"
          >
            {t('option.includeName')}
          </Checkbox>
          <Checkbox
            checked={draft.includeTag}
            onChange={(e) => set({ includeTag: e.target.checked })}
            data-testid="search-option-tag"
          >
            {t('option.includeTag')}
          </Checkbox>
          <Checkbox
            checked={draft.includeContent}
            onChange={(e) => set({ includeContent: e.target.checked })}
            data-testid="search-option-content"
          >
            {t('option.includeContent')}
          </Checkbox>
        </span>
      </div>
      {nothing ? (
        <div className="nb-search-options__error">{t('option.nothingIncluded')}</div>
      ) : null}
      <div className="nb-search-options__actions">
        <Button
          size="small"
          onClick={() => setDraft(DEFAULT_OPTIONS)}
          data-testid="search-option-reset"
        >
          {t('option.reset')}
        </Button>
        <Button
          size="small"
          type="primary"
          disabled={nothing}
          onClick={() => onApply(draft)}
          data-testid="search-option-apply"
        >
          {t('option.apply')}
        </Button>
      </div>
    </div>
  );
}
