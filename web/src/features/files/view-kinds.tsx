import {
  ClockCircleOutlined,
  CloudServerOutlined,
  CustomerServiceOutlined,
  DeleteOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  PictureOutlined,
  StarOutlined,
  TagsOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

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

/** Title keys shared by the `routes` and `files.views` namespaces. */
export type FileViewTitle =
  | 'home'
  | 'recently'
  | 'favorite'
  | 'document'
  | 'image'
  | 'audio'
  | 'video'
  | 'mount'
  | 'trash'
  | 'tags';

export interface FileViewConfig {
  title: FileViewTitle;
  icon: ReactNode;
  /** API notes §3: home name asc, recently uploadDate desc, type views updateDate desc. */
  defaultSort: { prop: SortProp; order: SortOrder };
}

export const FILE_VIEWS: Record<FileViewKind, FileViewConfig> = {
  home: {
    title: 'home',
    icon: <FolderOpenOutlined />,
    defaultSort: { prop: 'name', order: 'ascending' },
  },
  recently: {
    title: 'recently',
    icon: <ClockCircleOutlined />,
    defaultSort: { prop: 'uploadDate', order: 'descending' },
  },
  favorite: {
    title: 'favorite',
    icon: <StarOutlined />,
    defaultSort: { prop: 'name', order: 'ascending' },
  },
  document: {
    title: 'document',
    icon: <FileTextOutlined />,
    defaultSort: { prop: 'updateDate', order: 'descending' },
  },
  image: {
    title: 'image',
    icon: <PictureOutlined />,
    defaultSort: { prop: 'updateDate', order: 'descending' },
  },
  audio: {
    title: 'audio',
    icon: <CustomerServiceOutlined />,
    defaultSort: { prop: 'updateDate', order: 'descending' },
  },
  video: {
    title: 'video',
    icon: <VideoCameraOutlined />,
    defaultSort: { prop: 'updateDate', order: 'descending' },
  },
  mount: {
    title: 'mount',
    icon: <CloudServerOutlined />,
    defaultSort: { prop: 'name', order: 'ascending' },
  },
  trash: {
    title: 'trash',
    icon: <DeleteOutlined />,
    defaultSort: { prop: 'updateDate', order: 'descending' },
  },
  tag: { title: 'tags', icon: <TagsOutlined />, defaultSort: { prop: 'name', order: 'ascending' } },
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
