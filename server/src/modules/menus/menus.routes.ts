import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answers,
  authorityList,
  confirms,
  idsQuery,
  menuBody,
  menuInfoQuery,
  menuList,
  menuNode,
  menuUpdateBody,
  role,
  roleBody,
  roleList,
  roleUpdateBody,
} from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Repeated-key id lists also accept the names the original client used (menuIds, roleIds). */
const idsAlias = (alias: string) =>
  z.preprocess((q) => {
    const o = (q ?? {}) as Record<string, unknown>;
    return { ids: o.ids ?? o[alias] };
  }, idsQuery);

export async function menusRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { menus } = app.services;

  api.get('/menu/tree', { schema: { response: answers(menuList) } }, async (request) =>
    ok(await menus.treeFor(actorOf(request))),
  );
  api.get('/menu/list', { schema: { response: answers(menuList) } }, async (request) =>
    ok(await menus.list(actorOf(request))),
  );
  api.get('/menu/authorities', { schema: { response: answers(authorityList) } }, async (request) =>
    ok(await menus.authorities(actorOf(request))),
  );
  api.get(
    '/menu/info',
    { schema: { querystring: menuInfoQuery, response: answers(menuNode) } },
    async (request) => ok(await menus.info(actorOf(request), request.query.menuId)),
  );
  api.post(
    '/menu/add',
    { schema: { body: menuBody, response: answers(menuNode) } },
    async (request) => ok(await menus.add(actorOf(request), request.body)),
  );
  api.put(
    '/menu/update',
    { schema: { body: menuUpdateBody, response: answers(menuNode) } },
    async (request) => {
      const { id, ...fields } = request.body;
      return ok(await menus.update(actorOf(request), id, fields));
    },
  );
  api.delete(
    '/menu/delete',
    { schema: { querystring: idsAlias('menuIds'), response: confirms } },
    async (request) => {
      await menus.remove(actorOf(request), request.query.ids);
      return ok();
    },
  );

  api.get('/role/list', { schema: { response: answers(roleList) } }, async (request) => {
    const roles = await menus.roles(actorOf(request));
    return ok(roles, { count: roles.length });
  });
  api.post('/role/add', { schema: { body: roleBody, response: answers(role) } }, async (request) =>
    ok(await menus.addRole(actorOf(request), request.body)),
  );
  api.put(
    '/role/update',
    { schema: { body: roleUpdateBody, response: answers(role) } },
    async (request) => {
      const { id, ...fields } = request.body;
      return ok(await menus.updateRole(actorOf(request), id, fields));
    },
  );
  api.delete(
    '/role/delete',
    { schema: { querystring: idsAlias('roleIds'), response: confirms } },
    async (request) => {
      await menus.removeRoles(actorOf(request), request.query.ids);
      return ok();
    },
  );

  api.put('/user/setting/resetMenuAndRole', { schema: { response: confirms } }, async (request) => {
    await menus.resetMenuAndRole(actorOf(request));
    return ok(undefined, { message: 'Menus and roles restored' });
  });
}
