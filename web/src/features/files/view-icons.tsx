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
import { FILE_VIEWS, type FileViewFacts, type FileViewKind } from '../../lib/view-kinds';

/**
 * The views' icons, apart from their facts: the router reads the facts on the first visit, and
 * the icons come with the drive's pages.
 */
const FILE_VIEW_ICONS: Record<FileViewKind, ReactNode> = {
  home: <FolderOpenOutlined />,
  recently: <ClockCircleOutlined />,
  favorite: <StarOutlined />,
  document: <FileTextOutlined />,
  image: <PictureOutlined />,
  audio: <CustomerServiceOutlined />,
  video: <VideoCameraOutlined />,
  mount: <CloudServerOutlined />,
  trash: <DeleteOutlined />,
  tag: <TagsOutlined />,
};

export interface FileViewConfig extends FileViewFacts {
  icon: ReactNode;
}

export function fileViewConfig(kind: FileViewKind): FileViewConfig {
  return { ...FILE_VIEWS[kind], icon: FILE_VIEW_ICONS[kind] };
}
