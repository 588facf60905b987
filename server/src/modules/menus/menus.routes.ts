import type { FastifyInstance } from 'fastify';
import { menusApi, rolesApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** The menu tree and the roles built from it. */
export async function menusRoutes(app: FastifyInstance): Promise<void> {
  const { menus } = app.services;

  serve(app, menusApi.tree, async (request) => ok(await menus.treeFor(actorOf(request))));
  serve(app, menusApi.list, async (request) => ok(await menus.list(actorOf(request))));
  serve(app, menusApi.authorities, async (request) =>
    ok(await menus.authorities(actorOf(request))),
  );
  serve(app, menusApi.info, async (request) =>
    ok(await menus.info(actorOf(request), request.query.menuId)),
  );
  serve(app, menusApi.add, async (request) => ok(await menus.add(actorOf(request), request.body)));
  serve(app, menusApi.update, async (request) => {
    const { id, ...fields } = request.body;
    return ok(await menus.update(actorOf(request), id, fields));
  });
  serve(app, menusApi.remove, async (request) => {
    await menus.remove(actorOf(request), request.query.ids);
    return ok();
  });
  serve(app, menusApi.reset, async (request) => {
    await menus.resetMenuAndRole(actorOf(request));
    return ok(undefined, { message: 'Menus and roles restored' });
  });

  serve(app, rolesApi.list, async (request) => {
    const roles = await menus.roles(actorOf(request));
    return ok(roles, { count: roles.length });
  });
  serve(app, rolesApi.add, async (request) =>
    ok(await menus.addRole(actorOf(request), request.body)),
  );
  serve(app, rolesApi.update, async (request) => {
    const { id, ...fields } = request.body;
    return ok(await menus.updateRole(actorOf(request), id, fields));
  });
  serve(app, rolesApi.remove, async (request) => {
    await menus.removeRoles(actorOf(request), request.query.ids);
    return ok();
  });
}
