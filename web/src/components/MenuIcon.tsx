import * as Icons from '@ant-design/icons';
import type { MenuNode } from '@nimbus/contract';
import { createElement, type ComponentType } from 'react';
import { isExternal } from '../lib/menus';

type IconComponent = ComponentType<{ className?: string }>;

/**
 * The icons a menu may name (antd names). A curated set keeps the bundle small (each member of
 * the namespace is named here, so the bundler keeps only these); an unknown name falls back to
 * a neutral icon. A few short aliases cover names of the original product.
 */
export const MENU_ICONS: Record<string, IconComponent> = {
  ApiOutlined: Icons.ApiOutlined,
  AppstoreOutlined: Icons.AppstoreOutlined,
  AudioOutlined: Icons.AudioOutlined,
  BarChartOutlined: Icons.BarChartOutlined,
  BellOutlined: Icons.BellOutlined,
  BookOutlined: Icons.BookOutlined,
  CalendarOutlined: Icons.CalendarOutlined,
  CameraOutlined: Icons.CameraOutlined,
  ClockCircleOutlined: Icons.ClockCircleOutlined,
  CloudDownloadOutlined: Icons.CloudDownloadOutlined,
  CloudOutlined: Icons.CloudOutlined,
  CloudServerOutlined: Icons.CloudServerOutlined,
  CloudUploadOutlined: Icons.CloudUploadOutlined,
  ClusterOutlined: Icons.ClusterOutlined,
  CodeOutlined: Icons.CodeOutlined,
  ControlOutlined: Icons.ControlOutlined,
  CustomerServiceOutlined: Icons.CustomerServiceOutlined,
  DashboardOutlined: Icons.DashboardOutlined,
  DatabaseOutlined: Icons.DatabaseOutlined,
  DeleteOutlined: Icons.DeleteOutlined,
  DesktopOutlined: Icons.DesktopOutlined,
  DownloadOutlined: Icons.DownloadOutlined,
  EditOutlined: Icons.EditOutlined,
  ExportOutlined: Icons.ExportOutlined,
  FileImageOutlined: Icons.FileImageOutlined,
  FileOutlined: Icons.FileOutlined,
  FileTextOutlined: Icons.FileTextOutlined,
  FolderOpenOutlined: Icons.FolderOpenOutlined,
  FolderOutlined: Icons.FolderOutlined,
  FormOutlined: Icons.FormOutlined,
  GithubOutlined: Icons.GithubOutlined,
  GlobalOutlined: Icons.GlobalOutlined,
  HddOutlined: Icons.HddOutlined,
  HeartOutlined: Icons.HeartOutlined,
  HistoryOutlined: Icons.HistoryOutlined,
  HomeOutlined: Icons.HomeOutlined,
  IdcardOutlined: Icons.IdcardOutlined,
  InfoCircleOutlined: Icons.InfoCircleOutlined,
  KeyOutlined: Icons.KeyOutlined,
  LinkOutlined: Icons.LinkOutlined,
  LockOutlined: Icons.LockOutlined,
  MailOutlined: Icons.MailOutlined,
  MenuOutlined: Icons.MenuOutlined,
  MessageOutlined: Icons.MessageOutlined,
  MobileOutlined: Icons.MobileOutlined,
  PhoneOutlined: Icons.PhoneOutlined,
  PictureOutlined: Icons.PictureOutlined,
  PlayCircleOutlined: Icons.PlayCircleOutlined,
  ProfileOutlined: Icons.ProfileOutlined,
  QuestionCircleOutlined: Icons.QuestionCircleOutlined,
  ReadOutlined: Icons.ReadOutlined,
  RestOutlined: Icons.RestOutlined,
  RocketOutlined: Icons.RocketOutlined,
  SafetyCertificateOutlined: Icons.SafetyCertificateOutlined,
  SafetyOutlined: Icons.SafetyOutlined,
  ScheduleOutlined: Icons.ScheduleOutlined,
  SettingOutlined: Icons.SettingOutlined,
  ShareAltOutlined: Icons.ShareAltOutlined,
  SkinOutlined: Icons.SkinOutlined,
  SolutionOutlined: Icons.SolutionOutlined,
  SoundOutlined: Icons.SoundOutlined,
  StarOutlined: Icons.StarOutlined,
  SyncOutlined: Icons.SyncOutlined,
  TagOutlined: Icons.TagOutlined,
  TagsOutlined: Icons.TagsOutlined,
  TeamOutlined: Icons.TeamOutlined,
  ToolOutlined: Icons.ToolOutlined,
  UnorderedListOutlined: Icons.UnorderedListOutlined,
  UploadOutlined: Icons.UploadOutlined,
  UserOutlined: Icons.UserOutlined,
  VideoCameraOutlined: Icons.VideoCameraOutlined,
};

const ALIASES: Record<string, IconComponent> = {
  blogger: Icons.ReadOutlined,
  home: Icons.HomeOutlined,
  recently: Icons.ClockCircleOutlined,
  favorite: Icons.StarOutlined,
  document: Icons.FileTextOutlined,
  image: Icons.PictureOutlined,
  audio: Icons.CustomerServiceOutlined,
  music: Icons.CustomerServiceOutlined,
  video: Icons.VideoCameraOutlined,
  mount: Icons.CloudServerOutlined,
  share: Icons.ShareAltOutlined,
  trash: Icons.DeleteOutlined,
  setting: Icons.SettingOutlined,
  user: Icons.UserOutlined,
  role: Icons.SafetyCertificateOutlined,
  menu: Icons.MenuOutlined,
  tag: Icons.TagOutlined,
};

/**
 * The icons of the built-in menus, by their stable ids: their `icon` field names the original
 * product's icon set (for its clients), which this app does not draw.
 */
const BUILTIN_MENU_ICONS: Record<string, IconComponent> = {
  home: Icons.HomeOutlined,
  recently: Icons.ClockCircleOutlined,
  favorite: Icons.StarOutlined,
  document: Icons.FileTextOutlined,
  image: Icons.PictureOutlined,
  audio: Icons.CustomerServiceOutlined,
  video: Icons.VideoCameraOutlined,
  mount: Icons.CloudServerOutlined,
  trash: Icons.DeleteOutlined,
  tag: Icons.TagsOutlined,
  share: Icons.ShareAltOutlined,
  'setting-user': Icons.UserOutlined,
  'setting-cloud': Icons.SettingOutlined,
  'setting-task': Icons.UnorderedListOutlined,
  'sys-user': Icons.TeamOutlined,
  'sys-role': Icons.SafetyCertificateOutlined,
  'sys-menu': Icons.MenuOutlined,
  'avatar-setting': Icons.SettingOutlined,
  'avatar-cloud': Icons.CloudOutlined,
  'avatar-task': Icons.UnorderedListOutlined,
};

/**
 * A menu's icon: one an administrator picked from this app's set (or a link), else the built-in
 * menu's own by its id, else what its name suggests.
 */
export function iconOfMenu(menu: Pick<MenuNode, 'id' | 'icon'>): IconComponent {
  const name = menu.icon;
  if (name && (MENU_ICONS[name] || isExternal(name))) return iconFor(name);
  return BUILTIN_MENU_ICONS[menu.id] ?? iconFor(name);
}

export function iconFor(name: string | null | undefined): IconComponent {
  if (!name) return Icons.AppstoreOutlined;
  if (isExternal(name)) return Icons.ExportOutlined;
  return MENU_ICONS[name] ?? ALIASES[name] ?? ALIASES[name.toLowerCase()] ?? Icons.AppstoreOutlined;
}

/** An icon by its name (`name`), or the icon of a menu (`menu`). */
export function MenuIcon({
  name,
  menu,
  className,
}: {
  name?: string | null;
  menu?: Pick<MenuNode, 'id' | 'icon'>;
  className?: string;
}) {
  return createElement(menu ? iconOfMenu(menu) : iconFor(name), { className });
}
