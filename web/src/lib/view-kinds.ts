export type FileViewKind =
  | 'home'
  | 'recently'
  | 'favorite'
  | 'document'
  | 'image'
  | 'audio'
  | 'video'
  | 'mount'
  | 'trash'
  | 'tag';

export type SortProp = 'name' | 'size' | 'uploadDate' | 'updateDate';
export type SortOrder = 'ascending' | 'descending';
export const SORT_PROPS: SortProp[] = ['name', 'size', 'uploadDate', 'updateDate'];

/** Title keys shared by the `routes` and `files.views` namespaces: the kind, but "tags" for tag. */
export type FileViewTitle = Exclude<FileViewKind, 'tag'> | 'tags';

/** What the router and the listing need of a view; its icon is in `view-icons.tsx`. */
export interface FileViewFacts {
  title: FileViewTitle;
  /** API notes §3: home name asc, recently uploadDate desc, type views updateDate desc. */
  defaultSort: { prop: SortProp; order: SortOrder };
}

const BY_NAME = { prop: 'name', order: 'ascending' } as const;
const NEWEST_UPLOADED = { prop: 'uploadDate', order: 'descending' } as const;
const NEWEST_CHANGED = { prop: 'updateDate', order: 'descending' } as const;

export const FILE_VIEWS: Record<FileViewKind, FileViewFacts> = {
  home: { title: 'home', defaultSort: BY_NAME },
  recently: { title: 'recently', defaultSort: NEWEST_UPLOADED },
  favorite: { title: 'favorite', defaultSort: BY_NAME },
  document: { title: 'document', defaultSort: NEWEST_CHANGED },
  image: { title: 'image', defaultSort: NEWEST_CHANGED },
  audio: { title: 'audio', defaultSort: NEWEST_CHANGED },
  video: { title: 'video', defaultSort: NEWEST_CHANGED },
  mount: { title: 'mount', defaultSort: BY_NAME },
  trash: { title: 'trash', defaultSort: NEWEST_CHANGED },
  tag: { title: 'tags', defaultSort: BY_NAME },
};

/**
 * spec §2: views where a folder-style listing does not apply: the type views, favorite, mount,
 * trash and tag without a path query, and a keyword search that does not open a folder.
 */
export function isFlatView(pathname: string, params: URLSearchParams): boolean {
  if (['/recently', '/document', '/audio', '/image', '/video'].includes(pathname)) return true;
  if (['/favorite', '/mount', '/trash', '/tag'].includes(pathname) && !params.get('path'))
    return true;
  return Boolean(params.get('keyword')) && !params.get('searchOpenFolder');
}

/** Folder path segments of a `path` query ("/a/b/" → ["a", "b"]). */
export function pathSegments(path: string | null): string[] {
  return (path ?? '/').split('/').filter(Boolean);
}
