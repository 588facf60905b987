import type { Kysely } from 'kysely';

/**
 * The built-in menus take the view paths and icon names of the original menu seed (API-NOTES
 * appendix): a client written for the original loads `component` as a view and draws `icon`
 * from its own set, and Nimbus's web app draws its menus by id. A field changes only where it
 * still holds the value Nimbus seeded: a choice an administrator made stays, and menus people
 * added are not touched. The values are written out here, so this step means the same whatever
 * the seed becomes.
 */
const CHANGES: Array<{ id: string; was: [string | null, string]; now: [string, string] }> = [
  { id: 'home', was: ['Home', 'HomeOutlined'], now: ['/home/index', 'ziyuan'] },
  {
    id: 'recently',
    was: ['Recently', 'ClockCircleOutlined'],
    now: ['/recently/index', 'zuijinyuedu'],
  },
  {
    id: 'favorite',
    was: ['Favorite', 'StarOutlined'],
    now: ['/favorite/index', 'Favoritestarrate'],
  },
  {
    id: 'document',
    was: ['Document', 'FileTextOutlined'],
    now: ['/fileType/document', 'document'],
  },
  { id: 'image', was: ['Image', 'PictureOutlined'], now: ['/fileType/image', 'image'] },
  {
    id: 'audio',
    was: ['Audio', 'CustomerServiceOutlined'],
    now: ['/fileType/audio', 'file_music'],
  },
  { id: 'video', was: ['Video', 'VideoCameraOutlined'], now: ['/fileType/video', 'video'] },
  { id: 'mount', was: ['Mount', 'CloudServerOutlined'], now: ['/mount/index', 'guazai'] },
  { id: 'trash', was: ['Trash', 'DeleteOutlined'], now: ['/trash/index', 'huishouzhan'] },
  { id: 'tag', was: ['Tag', 'TagsOutlined'], now: ['/tag/index', 'biaoqian'] },
  { id: 'share', was: ['Share', 'ShareAltOutlined'], now: ['/share/index', 'gongxiangzhongxin'] },
  {
    id: 'setting-user',
    was: ['SettingUser', 'UserOutlined'],
    now: ['/setting/sys/cusomerInfo', 'UserSettings'],
  },
  {
    id: 'setting-cloud',
    was: ['CloudManager', 'SettingOutlined'],
    now: ['/setting/cloudManager', 'yunshezhi'],
  },
  {
    id: 'setting-task',
    was: ['TaskProgress', 'UnorderedListOutlined'],
    now: ['/setting/taskProgress', 'gengxinjindu'],
  },
  {
    id: 'sys-user',
    was: ['SysUser', 'TeamOutlined'],
    now: ['/setting/sys/cusomerManager', 'huaban'],
  },
  {
    id: 'sys-role',
    was: ['SysRole', 'SafetyCertificateOutlined'],
    now: ['/setting/sys/roleManager', 'role'],
  },
  { id: 'sys-menu', was: ['SysMenu', 'MenuOutlined'], now: ['/setting/sys/menuManager', 'menu'] },
  {
    id: 'avatar-setting',
    was: [null, 'SettingOutlined'],
    now: ['/setting/sys/cusomerInfo', 'shezhi'],
  },
  {
    id: 'avatar-cloud',
    was: [null, 'CloudOutlined'],
    now: ['/setting/cloudManager', 'yunshezhi'],
  },
  {
    id: 'avatar-task',
    was: [null, 'UnorderedListOutlined'],
    now: ['/setting/taskProgress', 'gengxinjindu'],
  },
];

interface MenuRow {
  id: string;
  component: string | null;
  icon: string | null;
  menuType: number;
  builtin: number;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const kdb = db as unknown as Kysely<{ menu: MenuRow }>;
  for (const { id, was, now } of CHANGES) {
    const [component, icon] = was;
    // an empty field counts as never chosen
    await kdb
      .updateTable('menu')
      .set({ component: now[0] })
      .where('id', '=', id)
      .where('builtin', '=', 1)
      .where((eb) =>
        eb.or([
          eb('component', 'is', null),
          eb('component', '=', ''),
          ...(component ? [eb('component', '=', component)] : []),
        ]),
      )
      .execute();
    await kdb
      .updateTable('menu')
      .set({ icon: now[1] })
      .where('id', '=', id)
      .where('builtin', '=', 1)
      .where((eb) => eb.or([eb('icon', 'is', null), eb('icon', '=', ''), eb('icon', '=', icon)]))
      .execute();
  }
  // the built-in authorities (type 1) have no view and no icon: empty text, as in the original
  await kdb
    .updateTable('menu')
    .set({ component: '' })
    .where('builtin', '=', 1)
    .where('menuType', '=', 1)
    .where('component', 'is', null)
    .execute();
  await kdb
    .updateTable('menu')
    .set({ icon: '' })
    .where('builtin', '=', 1)
    .where('menuType', '=', 1)
    .where('icon', 'is', null)
    .execute();
}

export async function down(): Promise<void> {
  // the earlier names are not read by anything any more
}
