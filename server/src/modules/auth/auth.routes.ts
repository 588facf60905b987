import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answers,
  confirms,
  accessTokenView,
  deleteAccessTokenQuery,
  generateAccessTokenQuery,
  initializationBody,
  initializationResult,
  loginBody,
  loginResult,
  TOKEN_HEADER,
} from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from './auth.plugin.ts';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { auth, users, accessTokens } = app.services;

  api.get(
    '/public/has_user',
    { config: { public: true }, schema: { response: answers(z.boolean()) } },
    async () =>
      // API-NOTES §1.1: data is always true; count says whether a user exists.
      ok(true, { count: Math.min(1, await users.userCount()) }),
  );

  api.post(
    '/public/initialization',
    {
      config: { public: true },
      schema: { body: initializationBody, response: answers(initializationResult) },
    },
    async (request) => {
      const user = await users.initialize(request.body.username, request.body.password);
      request.log.info({ userId: user.id }, 'drive initialized');
      return ok({ userId: user.id, username: user.username });
    },
  );

  api.post(
    '/login',
    { config: { public: true }, schema: { body: loginBody, response: answers(loginResult) } },
    async (request, reply) => {
      const { token, ...result } = await auth.login({
        username: request.body.username,
        password: request.body.password,
        rememberMe: request.body.rememberMe,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      const remember = request.body.rememberMe;
      reply.setCookie(TOKEN_HEADER, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        ...(remember ? { maxAge: app.config.rememberTtlMs / 1000 } : {}),
      });
      return ok(result);
    },
  );

  api.get('/logout', { schema: { response: confirms } }, async (request, reply) => {
    await auth.logout(actorOf(request));
    reply.clearCookie(TOKEN_HEADER, { path: '/' });
    return ok();
  });

  // ---- access tokens (API-NOTES §1.2) ------------------------------------------------------

  api.put(
    '/user/setting/generateAccessToken',
    { schema: { querystring: generateAccessTokenQuery, response: answers(z.string()) } },
    async (request) => {
      const actor = actorOf(request);
      return ok(await accessTokens.generate(actor.id, request.query.tokenName));
    },
  );

  api.get(
    '/user/setting/accessTokenList',
    { schema: { response: answers(z.array(accessTokenView)) } },
    async (request) => {
      const actor = actorOf(request);
      return ok(await accessTokens.list(actor.id, actor.username));
    },
  );

  api.delete(
    '/user/setting/deleteAccessToken',
    { schema: { querystring: deleteAccessTokenQuery, response: confirms } },
    async (request) => {
      await accessTokens.remove(actorOf(request).id, request.query.id);
      return ok();
    },
  );
}
