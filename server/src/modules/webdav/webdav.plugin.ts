import type { FastifyInstance } from 'fastify';
import { basicAuthenticator, type DavAuthenticator } from './webdav-auth.ts';
import { installWebdav } from './webdav.routes.ts';
import { WebdavService } from './webdav.service.ts';

/**
 * WebDAV at `/webdav/`, on the app's services. `authenticate` is the seam for other ways in
 * (LDAP accounts, say); by default, Basic with the account password or an access token.
 */
export function registerWebdav(app: FastifyInstance, authenticate?: DavAuthenticator): void {
  const s = app.services;
  const dav = new WebdavService(
    s.db,
    s.files,
    s.fileRows,
    s.folderListing,
    s.fileOps,
    s.trash,
    s.history,
    s.shareAccess,
    s.shareVisitors,
    s.mounts,
  );
  installWebdav(
    app,
    dav,
    authenticate ??
      basicAuthenticator({
        users: s.users,
        attempts: s.attempts,
        accessTokens: s.accessTokens,
        auth: s.auth,
      }),
  );
}
