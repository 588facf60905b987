import type { PublicFileView, ShareFacts } from '@nimbus/contract';
import { describe, expect, it, vi } from 'vitest';
import { SHARE_MENUS, visibleShareActions } from './browser-actions';
import { visibleChildren } from '../../actions/registry';
import {
  sharePermissionCheck,
  type ShareBrowserCommands,
  type ShareBrowserContext,
} from './browser-actions';

const facts = (allowDownload: boolean, ops: ShareFacts['operationPermissionList']): ShareFacts => ({
  id: 's1',
  shareId: 's1',
  shortId: 's1',
  fileName: 'project',
  isFolder: true,
  isPrivacy: true,
  expireDate: null,
  expiresAt: null,
  needCode: false,
  sharer: { username: 'admin', showName: 'admin', avatar: '' },
  allowDownload,
  operationPermissionList: ops,
});

const item = (name: string, isFolder = false): PublicFileView => ({
  id: name,
  name,
  path: '/',
  isFolder,
  size: 1,
  contentType: '',
  suffix: isFolder ? '' : (name.split('.').pop() ?? ''),
  type: '',
  uploadDate: '',
  updateDate: '',
  childrenCount: 0,
  isPrivacy: true,
  operationPermissionList: [],
});

const cmd = (): ShareBrowserCommands => ({
  open: vi.fn(),
  download: vi.fn(),
  zip: vi.fn(),
  rename: vi.fn(),
  remove: vi.fn(),
  newFolder: vi.fn(),
  uploadFiles: vi.fn(),
  uploadFolder: vi.fn(),
});

const ctx = (share: ShareFacts, items: PublicFileView[]): ShareBrowserContext => ({
  can: sharePermissionCheck(share),
  items,
  cmd: cmd(),
});

const ids = (actions: { id: string }[]) => actions.map((action) => action.id);

describe("the share browser's actions", () => {
  it('offers only what the share allows on an item', () => {
    const text = [item('notes.txt')];
    expect(ids(visibleShareActions(SHARE_MENUS.item, ctx(facts(false, []), text)))).toEqual([
      'preview',
    ]);
    expect(
      ids(
        visibleShareActions(SHARE_MENUS.item, ctx(facts(true, ['PUT', 'DELETE', 'UPLOAD']), text)),
      ),
    ).toEqual(['preview', 'download', 'rename', 'delete']);
    // a folder is not previewed; it downloads as a zip
    expect(
      ids(visibleShareActions(SHARE_MENUS.item, ctx(facts(true, []), [item('drafts', true)]))),
    ).toEqual(['download']);
  });

  it('offers the selection and the folder actions by the same permissions', () => {
    const two = [item('a.txt'), item('b.txt')];
    expect(ids(visibleShareActions(SHARE_MENUS.selection, ctx(facts(true, []), two)))).toEqual([
      'zip',
    ]);
    expect(
      ids(visibleShareActions(SHARE_MENUS.selection, ctx(facts(false, ['DELETE']), two))),
    ).toEqual(['delete']);
    expect(ids(visibleShareActions(SHARE_MENUS.folder, ctx(facts(true, ['PUT']), [])))).toEqual([]);
    const uploading = ctx(facts(false, ['UPLOAD']), []);
    const folder = visibleShareActions(SHARE_MENUS.folder, uploading);
    expect(ids(folder)).toEqual(['newFolder', 'upload']);
    expect(ids(visibleChildren(folder[1]!, uploading))).toEqual(['uploadFiles', 'uploadFolder']);
  });

  it('runs the command of the action', () => {
    const acting = ctx(facts(true, ['DELETE']), [item('a.txt'), item('b.txt')]);
    const [, remove] = visibleShareActions(SHARE_MENUS.selection, acting);
    remove!.run!(acting);
    expect(acting.cmd.remove).toHaveBeenCalledWith(acting.items);
  });
});
