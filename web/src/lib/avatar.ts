import { imagesApi } from '@nimbus/contract';

/** Avatar image for a user: the stored avatar through the thumbnail route (spec §7). */
export function avatarUrl(avatar: string | null | undefined): string | undefined {
  if (!avatar) return undefined;
  if (/^(https?:\/\/|data:image\/|\/)/i.test(avatar)) return avatar;
  return `/api${imagesApi.thumbnail.path}?id=${encodeURIComponent(avatar)}`;
}

const AVATAR_COLORS = ['#3d6dfa', '#7b5cff', '#13c2c2', '#fa8c16', '#eb2f96', '#52c41a'];

export function avatarColor(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
  return AVATAR_COLORS[Math.abs(hash) % AVATAR_COLORS.length] ?? '#3d6dfa';
}
