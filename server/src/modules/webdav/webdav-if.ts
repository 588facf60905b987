import { preconditionFailed } from './webdav-errors.ts';
import { treePathOf } from './webdav-headers.ts';
import { etagOf } from './webdav-props.ts';
import type { DavRequest } from './webdav-request.ts';
import type { WebdavService } from './webdav.service.ts';

/** The If header (RFC 4918 §10.4): one of its lists must hold, or 412. */
export async function checkIf(ctx: DavRequest, dav: WebdavService): Promise<void> {
  if (ctx.ifLists.length === 0) return;
  const states = new Map<string, { tokens: Set<string>; etag: string | null }>();
  const stateOf = async (path: string) => {
    let state = states.get(path);
    if (!state) {
      const item = await dav.find(ctx.actor.id, path);
      const locks = await dav.locks.covering(ctx.actor.id, path);
      state = {
        tokens: new Set(locks.map((l) => l.token)),
        etag:
          item?.kind === 'row' && !item.row.isFolder ? etagOf(item.row, item.row.updateDate) : null,
      };
      states.set(path, state);
    }
    return state;
  };
  for (const list of ctx.ifLists) {
    let path = ctx.path;
    if (list.resource !== undefined) {
      try {
        path = treePathOf(list.resource);
      } catch {
        continue;
      }
    }
    const state = await stateOf(path);
    const holds = list.conditions.every((c) => {
      const match = c.token !== undefined ? state.tokens.has(c.token) : c.etag === state.etag;
      return c.not ? !match : match;
    });
    if (holds) return;
  }
  throw preconditionFailed('No list of the If header holds');
}
