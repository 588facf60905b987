import { ArrowLeftOutlined, FolderOpenOutlined, SearchOutlined } from '@ant-design/icons';
import { DEFAULT_TAG_COLOR } from '@nimbus/contract';
import { Button, Spin, Tag } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { FileIcon } from '../../../components/FileIcon';
import { useFileFormat } from '../../../components/use-format';
import { useSearchResults, type SearchHit } from '../api';
import { highlight } from '../highlight';
import { optionsFromUrl, searchParams, type SearchOptions } from '../options';
import { locationUrl } from './SearchBox';
import '../search.css';

function ActiveOptions({ options, folder }: { options: SearchOptions; folder: string }) {
  const { t } = useTranslation('search');
  const chips: string[] = [
    options.wholeDrive || folder === '/' ? t('scope.drive') : t('scope.folder', { path: folder }),
  ];
  if (options.type) chips.push(t(`option.types.${options.type}`));
  if (options.date) chips.push(t(`option.dates.${options.date}`));
  if (options.sizeMin !== undefined || options.sizeMax !== undefined)
    chips.push(`${options.sizeMin ?? 0} – ${options.sizeMax ?? '∞'} MB`);
  if (options.exact) chips.push(t('option.exact'));
  const looks = [
    options.includeName ? t('option.includeName') : null,
    options.includeTag ? t('option.includeTag') : null,
    options.includeContent ? t('option.includeContent') : null,
  ].filter(Boolean);
  if (looks.length < 3) chips.push(looks.join(' · '));
  return (
    <div className="nb-results__chips" data-testid="search-active-options">
      {chips.map((chip) => (
        <Tag key={chip}>{chip}</Tag>
      ))}
    </div>
  );
}

function ResultRow({ hit }: { hit: SearchHit }) {
  const { t } = useTranslation('search');
  const fmt = useFileFormat();
  const navigate = useNavigate();
  const open = () => void navigate(locationUrl(hit));
  return (
    <li
      className="nb-result"
      data-testid="search-result"
      data-name={hit.name}
      data-matched={hit.matchedIn}
    >
      <button
        type="button"
        className="nb-result__main"
        onClick={open}
        title={t('openLocation', { path: hit.path })}
      >
        <FileIcon item={hit} size={36} />
        <span className="nb-result__body">
          <span className="nb-result__name" data-testid="search-result-name">
            {highlight(hit.name, hit.highlight)}
          </span>
          {hit.snippet ? (
            <span className="nb-result__snippet" data-testid="search-result-snippet">
              {highlight(hit.snippet, hit.highlight)}
            </span>
          ) : null}
          <span className="nb-result__meta">
            <span className={`nb-result__match nb-result__match--${hit.matchedIn}`}>
              {t(`matched.${hit.matchedIn}`)}
            </span>
            <span>{hit.isFolder ? '' : fmt.size(hit.size)}</span>
            <span>{fmt.ago(hit.updateDate)}</span>
            {hit.tags.map((tag) => (
              <Tag key={tag.id} color={tag.color || DEFAULT_TAG_COLOR} className="nb-result__tag">
                {highlight(tag.name, hit.highlight)}
              </Tag>
            ))}
          </span>
        </span>
      </button>
      <Link
        to={locationUrl(hit)}
        className="nb-result__loc"
        title={t('openLocation', { path: hit.path })}
        data-testid="search-result-location"
      >
        <FolderOpenOutlined /> <span>{hit.path === '/' ? t('root') : hit.path}</span>
      </Link>
    </li>
  );
}

/**
 * The results of a search (the home route with `keyword`): names, tags and content matches
 * with the matched words highlighted; a result opens its folder with the item highlighted.
 */
export function SearchResults() {
  const { t } = useTranslation('search');
  const [params] = useSearchParams();
  const keyword = params.get('keyword') ?? '';
  const folder = params.get('path') ?? '/';
  const options = useMemo(() => optionsFromUrl(params), [params]);
  // the date shortcuts are fixed when the search is opened, not at every refetch
  const query = useMemo(() => searchParams(keyword, options, folder), [keyword, options, folder]);
  const results = useSearchResults(query);
  const hits = useMemo(() => results.data?.pages.flatMap((p) => p.items) ?? [], [results.data]);
  const total = results.data?.pages[0]?.total ?? 0;
  const sentinel = useRef<HTMLDivElement>(null);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = results;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver((seen) => {
      if (seen.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const back = folder === '/' ? '/' : `/?${new URLSearchParams({ path: folder }).toString()}`;

  return (
    <section className="nb-results" data-testid="search-results">
      <header className="nb-results__head">
        <Link to={back} className="nb-results__back" title={t('back')} aria-label={t('back')}>
          <ArrowLeftOutlined />
        </Link>
        <h1 className="nb-results__title" data-testid="search-results-title">
          {t('resultsTitle', { keyword })}
        </h1>
        {results.data ? (
          <span className="nb-results__count" data-testid="search-results-count" data-count={total}>
            {t('results', { count: total })}
          </span>
        ) : null}
        <ActiveOptions options={options} folder={folder} />
      </header>
      {results.isPending ? (
        <div className="nb-results__loading">
          <Spin />
        </div>
      ) : hits.length === 0 ? (
        <EmptyState
          icon={<SearchOutlined />}
          title={t('empty', { keyword })}
          description={t('emptyHint')}
          testId="search-empty"
        />
      ) : (
        <>
          <ul className="nb-results__list">
            {hits.map((hit) => (
              <ResultRow key={hit.id} hit={hit} />
            ))}
          </ul>
          <div ref={sentinel} className="nb-results__more">
            {hasNextPage ? (
              <Button loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                {t('loadMore')}
              </Button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

/** The home route: the results page when it carries a keyword, the file browser otherwise. */
export function SearchOrBrowse({ children }: { children: React.ReactNode }) {
  const [params] = useSearchParams();
  return params.get('keyword') ? <SearchResults /> : children;
}
