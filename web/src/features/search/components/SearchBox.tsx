import {
  ClockCircleOutlined,
  CloseOutlined,
  ControlOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Input, Popover, Spin, Tooltip, type InputRef } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { FileIcon } from '../../../components/FileIcon';
import { useCurrentFolder } from '../../../stores/current-folder';
import { useAppStore } from '../../../stores/app';
import {
  clearHistory,
  deleteHistory,
  searchKeys,
  useQuickSearch,
  useSearchHistory,
  type SearchHit,
} from '../api';
import { highlight } from '../highlight';
import {
  changedOptions,
  optionsFromUrl,
  resultsUrl,
  searchParams,
  type SearchOptions,
} from '../options';
import { useSearchOptions } from '../store';
import { SearchOptionsPanel } from './SearchOptionsPanel';
import { isDialogOpen } from '../../../actions/shortcuts';
import '../search.css';

/** Where an item sits: its folder, opened with the item highlighted (spec §2 root route). */
export function locationUrl(item: Pick<SearchHit, 'path' | 'name'>): string {
  const params = new URLSearchParams();
  if (item.path && item.path !== '/') params.set('path', item.path);
  params.set('highlight', item.name);
  return `/?${params.toString()}`;
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

type Entry =
  | { kind: 'history'; id: string; keyword: string }
  | { kind: 'hit'; hit: SearchHit }
  | { kind: 'all'; keyword: string };

/**
 * The search box of the top bar: recent searches, results while typing, the options popover;
 * Enter opens the results page. Ctrl/⌘+P focuses it (API-NOTES §3).
 */
export function SearchBox() {
  const { t } = useTranslation('search');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const browsing = useCurrentFolder();
  // the results page is the home page with a keyword (`/home_m` on a phone)
  const onResults = (pathname === '/' || pathname === '/home_m') && params.has('keyword');
  const folder = onResults ? (params.get('path') ?? '/') : browsing.path;
  const urlKeyword = onResults ? (params.get('keyword') ?? '') : '';

  const storeOptions = useSearchOptions((s) => s.options);
  const setStoreOptions = useSearchOptions((s) => s.setOptions);
  const options = onResults ? optionsFromUrl(params) : storeOptions;

  const [text, setText] = useState(urlKeyword);
  const [shownKeyword, setShownKeyword] = useState(urlKeyword);
  if (shownKeyword !== urlKeyword) {
    // another search was opened (history, back button): the box shows its keyword
    setShownKeyword(urlKeyword);
    setText(urlKeyword);
  }
  const [open, setOpen] = useState(false);
  const [optionsOpen, setOptionsOpenState] = useState(false);
  // one popup at a time: the filters close the suggestions and keep them closed
  const optionsShown = useRef(false);
  const setOptionsOpen = (next: boolean) => {
    optionsShown.current = next;
    setOptionsOpenState(next);
    if (next) {
      setOpen(false);
      setActive(-1);
    }
  };
  const [active, setActive] = useState(-1);
  const input = useRef<InputRef>(null);
  const box = useRef<HTMLDivElement>(null);

  const typed = useDebounced(text.trim(), 250);
  const history = useSearchHistory(typed, open);
  const quickParams = useMemo(() => searchParams(typed, options, folder), [typed, options, folder]);
  const quick = useQuickSearch(quickParams, open && typed !== '');

  const entries = useMemo<Entry[]>(() => {
    const list: Entry[] = (history.data ?? [])
      .slice(0, typed ? 4 : 8)
      .map((h) => ({ kind: 'history', id: h.id, keyword: h.keyword }));
    if (typed) {
      for (const hit of quick.data?.items ?? []) list.push({ kind: 'hit', hit });
      list.push({ kind: 'all', keyword: typed });
    }
    return list;
  }, [history.data, quick.data, typed]);

  const submit = useCallback(
    (keyword: string, chosen: SearchOptions = options) => {
      const k = keyword.trim();
      if (!k) return;
      setOpen(false);
      setActive(-1);
      setText(k);
      input.current?.blur();
      void navigate(resultsUrl(k, chosen, folder));
      void queryClient.invalidateQueries({ queryKey: ['search', 'history'] });
    },
    [navigate, options, folder, queryClient],
  );

  const choose = (entry: Entry) => {
    if (entry.kind === 'hit') {
      setOpen(false);
      void navigate(locationUrl(entry.hit));
    } else if (entry.kind === 'all') {
      // what the box holds now, even before the results while typing have caught up
      submit(text.trim() || entry.keyword);
    } else submit(entry.keyword);
  };

  const removeHistory = async (id: string) => {
    await deleteHistory(id).catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: ['search', 'history'] });
  };
  const removeAll = async () => {
    await clearHistory().catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: searchKeys.all });
  };

  // Ctrl/⌘+P: focus the search box
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // not from a dialog: the box lies behind it
      if (isDialogOpen()) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'p') {
        event.preventDefault();
        input.current?.focus();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // a click elsewhere closes the suggestions
  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(entries.length - 1, a + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((a) => Math.max(-1, a - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const entry = entries[active];
      if (open && entry) choose(entry);
      else submit(text);
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };

  const applyOptions = (next: SearchOptions) => {
    setStoreOptions(next);
    setOptionsOpen(false);
    if (text.trim()) submit(text, next);
  };

  const changed = changedOptions(options);
  const historyEntries = entries.filter((e) => e.kind === 'history');
  const hitEntries = entries.filter((e) => e.kind === 'hit');
  const panel = open && (entries.length > 0 || (typed && quick.isFetching));

  return (
    <div className={`nb-search${mobile ? ' nb-search--mobile' : ''}`} ref={box} role="search">
      <Input
        ref={input}
        value={text}
        allowClear
        placeholder={t('placeholder')}
        prefix={<SearchOutlined className="nb-search__icon" />}
        onChange={(e) => {
          setText(e.target.value);
          if (optionsShown.current) setOptionsOpen(false);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => {
          if (!optionsShown.current) setOpen(true);
        }}
        onKeyDown={onKeyDown}
        aria-label={t('placeholder')}
        title={`${t('placeholder')} (${t('shortcut')})`}
        aria-expanded={Boolean(panel)}
        aria-controls="nb-search-panel"
        role="combobox"
        data-testid="search-input"
        suffix={
          // a click here is the filters' alone: the box around would focus the input and open
          // the suggestions over them
          <span
            className="nb-search__options"
            onClick={(e) => e.stopPropagation()}
            onMouseDown={(e) => e.preventDefault()}
          >
            <Popover
              open={optionsOpen}
              onOpenChange={setOptionsOpen}
              trigger="click"
              placement="bottomRight"
              // on a phone the panel stands at the screen's left margin (search.css), away from
              // the button it would otherwise hang from, so no arrow points at it
              arrow={!mobile}
              rootClassName="nb-search-options-popover"
              destroyOnHidden
              title={t('options')}
              content={<SearchOptionsPanel value={options} onApply={applyOptions} />}
            >
              {/* the tip stays off while the panel it names is open: it would cover its title */}
              <Tooltip title={t('options')} open={optionsOpen ? false : undefined}>
                <Badge dot={changed > 0} offset={[-2, 2]}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ControlOutlined />}
                    aria-label={t('options')}
                    data-testid="search-options-button"
                  />
                </Badge>
              </Tooltip>
            </Popover>
          </span>
        }
      />
      {panel ? (
        <div
          className="nb-search__panel"
          id="nb-search-panel"
          role="listbox"
          data-testid="search-panel"
        >
          {historyEntries.length > 0 ? (
            <div className="nb-search__group">
              <div className="nb-search__group-head">
                <span>{t('recent')}</span>
                <Button
                  type="link"
                  size="small"
                  onClick={() => void removeAll()}
                  data-testid="search-history-clear"
                >
                  {t('clearHistory')}
                </Button>
              </div>
              {historyEntries.map((entry) => {
                if (entry.kind !== 'history') return null;
                const index = entries.indexOf(entry);
                return (
                  <div
                    key={entry.id}
                    role="option"
                    aria-selected={active === index}
                    className={`nb-search__item${active === index ? ' is-active' : ''}`}
                    onMouseEnter={() => setActive(index)}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => choose(entry)}
                    data-testid="search-history-item"
                  >
                    <ClockCircleOutlined className="nb-search__item-icon" />
                    <span className="nb-search__item-text">{entry.keyword}</span>
                    <Button
                      type="text"
                      size="small"
                      className="nb-search__item-remove"
                      icon={<CloseOutlined />}
                      aria-label={t('deleteHistory')}
                      title={t('deleteHistory')}
                      onClick={(e) => {
                        e.stopPropagation();
                        void removeHistory(entry.id);
                      }}
                      data-testid="search-history-delete"
                    />
                  </div>
                );
              })}
            </div>
          ) : null}
          {typed ? (
            <div className="nb-search__group">
              <div className="nb-search__group-head">
                <span>{t('files')}</span>
                {quick.isFetching ? <Spin size="small" /> : null}
              </div>
              {hitEntries.length === 0 && !quick.isFetching ? (
                <div className="nb-search__none">{t('noQuick')}</div>
              ) : null}
              {hitEntries.map((entry) => {
                if (entry.kind !== 'hit') return null;
                const index = entries.indexOf(entry);
                const { hit } = entry;
                return (
                  <div
                    key={hit.id}
                    role="option"
                    aria-selected={active === index}
                    className={`nb-search__item nb-search__item--hit${active === index ? ' is-active' : ''}`}
                    onMouseEnter={() => setActive(index)}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => choose(entry)}
                    title={t('openLocation', { path: hit.path })}
                    data-testid="search-quick-item"
                  >
                    <FileIcon item={hit} size={24} />
                    <span className="nb-search__hit">
                      <span className="nb-search__hit-name">
                        {highlight(hit.name, hit.highlight)}
                      </span>
                      <span className="nb-search__hit-meta">
                        {hit.snippet
                          ? highlight(hit.snippet, hit.highlight)
                          : hit.path === '/'
                            ? t('root')
                            : hit.path}
                      </span>
                    </span>
                  </div>
                );
              })}
              {entries
                .filter((e) => e.kind === 'all')
                .map((entry) => {
                  const index = entries.indexOf(entry);
                  return (
                    <div
                      key="all"
                      role="option"
                      aria-selected={active === index}
                      className={`nb-search__item nb-search__all${active === index ? ' is-active' : ''}`}
                      onMouseEnter={() => setActive(index)}
                      onMouseDown={(e) => e.preventDefault()}
                      onClick={() => choose(entry)}
                      data-testid="search-see-all"
                    >
                      <SearchOutlined className="nb-search__item-icon" />
                      <span className="nb-search__item-text">
                        {t('seeAll', { keyword: typed })}
                      </span>
                    </div>
                  );
                })}
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
