import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answers,
  confirms,
  accessTokenView,
  deleteAccessTokenQuery,
  generateAccessTokenQuery,
  initializationBody,
  initVerifyTotpBody,
  ldapConfig,
  mfaDisableBody,
  mfaEnableBody,
  mfaEnableResult,
  mfaForceQuery,
  mfaSetup,
  mfaSetupQuery,
  resetMfaQuery,
  verifyTotpBody,
  initializationResult,
  loginBody,
  loginResult,
  TOKEN_HEADER,
} from '@nimbus/contract';
import { notLoggedIn } from '../../lib/errors.ts';
import { acceptFormBodies } from '../../lib/form-bodies.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from './auth.plugin.ts';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { auth, users, accessTokens, mfa, ldap } = app.services;
  // the original client sends its first-run form as multipart (API-NOTES §1.1)
  await acceptFormBodies(app);

  /** The session cookie of a finished sign-in (none for a sign-in waiting for its code). */
  const sessionCookie = (reply: FastifyReply, token: string, remember: boolean) => {
    if (!token) return;
    reply.setCookie(TOKEN_HEADER, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      ...(remember ? { maxAge: app.config.rememberTtlMs / 1000 } : {}),
    });
  };

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
      sessionCookie(reply, token, request.body.rememberMe);
      return ok(result);
    },
  );

  // ---- two-factor sign-in (API-NOTES §1.1) ---------------------------------------------------

  api.post(
    '/public/verify-totp',
    { config: { public: true }, schema: { body: verifyTotpBody, response: answers(loginResult) } },
    async (request, reply) => {
      const { token, ...result } = await auth.verifyTotp({
        ...request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      sessionCookie(reply, token, request.body.rememberMe);
      return ok(result);
    },
  );

  api.post(
    '/public/init-verify-totp',
    {
      config: { public: true },
      schema: {
        body: initVerifyTotpBody,
        response: answers(loginResult.extend(mfaEnableResult.shape)),
      },
    },
    async (request, reply) => {
      const { token, ...result } = await auth.initVerifyTotp({
        ...request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      sessionCookie(reply, token, request.body.rememberMe);
      return ok(result);
    },
  );

  api.get(
    '/public/mfa/setup',
    {
      config: { public: true, sessionOnly: true },
      schema: { querystring: mfaSetupQuery, response: answers(mfaSetup) },
    },
    async (request) => {
      // signed in, or in the enrolment step of a sign-in: never for anyone by name alone
      const { mfaToken, username } = request.query;
      const user = request.actor
        ? await users.accountById(request.actor.id)
        : mfaToken && username
          ? await auth.enrolling(mfaToken, username)
          : undefined;
      if (!user) throw notLoggedIn();
      return ok(await mfa.setup(user));
    },
  );

  api.post(
    '/mfa/enable',
    {
      config: { sessionOnly: true },
      schema: { body: mfaEnableBody, response: answers(mfaEnableResult) },
    },
    async (request) => {
      const actor = actorOf(request);
      const user = await users.accountById(actor.id);
      if (!user) throw notLoggedIn();
      const { secret, code } = request.body;
      return ok({ recoveryCodes: await mfa.enable(user, secret, code, actor.sessionId) });
    },
  );

  api.post(
    '/mfa/disable',
    { config: { sessionOnly: true }, schema: { body: mfaDisableBody, response: confirms } },
    async (request) => {
      const user = await users.accountById(actorOf(request).id);
      if (!user) throw notLoggedIn();
      await mfa.disable(user, request.body.password, request.body.code);
      return ok();
    },
  );

  api.get(
    '/cloud/setting/mfa-force-enable',
    { schema: { response: answers(z.boolean()) } },
    async (request) => {
      actorOf(request);
      return ok(await mfa.forced());
    },
  );

  api.put(
    '/cloud/setting/mfa-force-enable',
    { schema: { querystring: mfaForceQuery, response: confirms } },
    async (request) => {
      await mfa.setForced(actorOf(request), request.query.mfaForceEnable);
      return ok();
    },
  );

  api.put(
    '/cloud/setting/reset-mfa',
    { schema: { querystring: resetMfaQuery, response: confirms } },
    async (request) => {
      await mfa.reset(actorOf(request), request.query.userId);
      return ok();
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
    {
      config: { sessionOnly: true },
      schema: { querystring: generateAccessTokenQuery, response: answers(z.string()) },
    },
    async (request) => {
      const { tokenName, scope, expiresAt } = request.query;
      return ok(
        await accessTokens.generate(actorOf(request).id, { name: tokenName, scope, expiresAt }),
      );
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
    {
      config: { sessionOnly: true },
      schema: { querystring: deleteAccessTokenQuery, response: confirms },
    },
    async (request) => {
      await accessTokens.remove(actorOf(request).id, request.query.id);
      return ok();
    },
  );

  // ---- LDAP sign-in (API-NOTES §1.12) -----------------------------------------------------

  api.get('/ldap/config', { schema: { response: answers(ldapConfig) } }, async (request) =>
    ok(await ldap.view(actorOf(request))),
  );

  api.put('/ldap/config', { schema: { body: ldapConfig, response: confirms } }, async (request) => {
    await ldap.update(actorOf(request), request.body);
    return ok();
  });

  api.put(
    '/ldap/test-config',
    { schema: { body: ldapConfig, response: confirms } },
    async (request) => {
      await ldap.test(actorOf(request), request.body);
      return ok();
    },
  );
}
