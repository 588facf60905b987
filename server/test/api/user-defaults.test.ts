import { describe, expect, it } from 'vitest';
import { ErrorCode, type UserDefaults, type UserListItem } from '@nimbus/contract';
import { call, makeUser, useAdminApp } from '../harness.ts';

// NIMBUS_DEFAULT_QUOTA_GB reaches the config as defaultQuotaGb
const { t, admin } = useAdminApp({ once: true, config: { defaultQuotaGb: 25 } });

describe("a new user's defaults", () => {
  it('tells an administrator the quota the drive is set to give', async () => {
    const res = await call<UserDefaults>(t.app, 'GET', '/user/defaults', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ quota: 25 });
  });

  it('gives a user added without a quota the configured one', async () => {
    const added = await call<UserListItem>(t.app, 'POST', '/user/add', {
      token: admin.token,
      body: { username: 'noquota', password: 'pass-1234' },
    });
    expect(added.body.code).toBe(0);
    const listed = await call<UserListItem[]>(t.app, 'GET', '/user/userList', {
      token: admin.token,
      query: { username: 'noquota' },
    });
    expect(listed.body.data?.map((u) => u.quota)).toEqual([25]);
  });

  it('refuses a user who may not add users', async () => {
    const user = await makeUser(t.app, admin.token);
    const res = await call(t.app, 'GET', '/user/defaults', { token: user.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await call(t.app, 'GET', '/user/defaults')).status).toBe(401);
  });
});
