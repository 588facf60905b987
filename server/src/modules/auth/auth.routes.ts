import type { FastifyInstance, FastifyReply } from 'fastify';
import { authApi, TOKEN_HEADER } from '@nimbus/contract';
import { notLoggedIn } from '../../lib/errors.ts';
import { acceptFormBodies } from '../../lib/form-bodies.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from './auth.plugin.ts';

export async function authRoutes(app: FastifyInstance): Promise<void> {
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

  serve(app, authApi.hasUser, async () =>
    // API-NOTES §1.1: data is always true; count says whether a user exists.
    ok(true, { count: Math.min(1, await users.userCount()) }),
  );

  serve(app, authApi.initialize, async (request) => {
    const user = await users.initialize(request.body.username, request.body.password);
    request.log.info({ userId: user.id }, 'drive initialized');
    return ok({ userId: user.id, username: user.username });
  });

  serve(app, authApi.login, async (request, reply) => {
    const { token, ...result } = await auth.login({
      username: request.body.username,
      password: request.body.password,
      rememberMe: request.body.rememberMe,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    sessionCookie(reply, token, request.body.rememberMe);
    return ok(result);
  });

  // ---- two-factor sign-in (API-NOTES §1.1) ---------------------------------------------------

  serve(app, authApi.verifyTotp, async (request, reply) => {
    const { token, ...result } = await auth.verifyTotp({
      ...request.body,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    sessionCookie(reply, token, request.body.rememberMe);
    return ok(result);
  });

  serve(app, authApi.initVerifyTotp, async (request, reply) => {
    const { token, ...result } = await auth.initVerifyTotp({
      ...request.body,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    sessionCookie(reply, token, request.body.rememberMe);
    return ok(result);
  });

  serve(app, authApi.mfaSetup, async (request) => {
    // signed in, or in the enrolment step of a sign-in: never for anyone by name alone
    const { mfaToken, username } = request.query;
    const user = request.actor
      ? await users.accountById(request.actor.id)
      : mfaToken && username
        ? await auth.enrolling(mfaToken, username)
        : undefined;
    if (!user) throw notLoggedIn();
    return ok(await mfa.setup(user));
  });

  serve(app, authApi.mfaEnable, async (request) => {
    const actor = actorOf(request);
    const user = await users.accountById(actor.id);
    if (!user) throw notLoggedIn();
    const { secret, code } = request.body;
    return ok({ recoveryCodes: await mfa.enable(user, secret, code, actor.sessionId) });
  });

  serve(app, authApi.mfaDisable, async (request) => {
    const user = await users.accountById(actorOf(request).id);
    if (!user) throw notLoggedIn();
    await mfa.disable(user, request.body.password, request.body.code);
    return ok();
  });

  serve(app, authApi.mfaForced, async (request) => {
    actorOf(request);
    return ok(await mfa.forced());
  });

  serve(app, authApi.setMfaForced, async (request) => {
    await mfa.setForced(actorOf(request), request.query.mfaForceEnable);
    return ok();
  });

  serve(app, authApi.resetMfa, async (request) => {
    await mfa.reset(actorOf(request), request.query.userId);
    return ok();
  });

  serve(app, authApi.logout, async (request, reply) => {
    await auth.logout(actorOf(request));
    reply.clearCookie(TOKEN_HEADER, { path: '/' });
    return ok();
  });

  // ---- access tokens (API-NOTES §1.2) ------------------------------------------------------

  serve(app, authApi.generateAccessToken, async (request) => {
    const { tokenName, scope, expiresAt } = request.query;
    return ok(
      await accessTokens.generate(actorOf(request).id, { name: tokenName, scope, expiresAt }),
    );
  });

  serve(app, authApi.accessTokens, async (request) => {
    const actor = actorOf(request);
    return ok(await accessTokens.list(actor.id, actor.username));
  });

  serve(app, authApi.deleteAccessToken, async (request) => {
    await accessTokens.remove(actorOf(request).id, request.query.id);
    return ok();
  });

  // ---- LDAP sign-in (API-NOTES §1.12) -----------------------------------------------------

  serve(app, authApi.ldapConfig, async (request) => ok(await ldap.view(actorOf(request))));

  serve(app, authApi.setLdapConfig, async (request) => {
    await ldap.update(actorOf(request), request.body);
    return ok();
  });

  serve(app, authApi.testLdapConfig, async (request) => {
    await ldap.test(actorOf(request), request.body);
    return ok();
  });
}
