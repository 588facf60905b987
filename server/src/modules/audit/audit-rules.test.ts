import { describe, expect, it } from 'vitest';
import { auditActionOf, auditTargetOf } from './audit-rules.ts';

describe('auditActionOf', () => {
  it('keeps sign-ins and changes to administration and security', () => {
    expect(auditActionOf('POST', '/login')).toBe('signIn');
    expect(auditActionOf('POST', '/public/verify-totp')).toBe('signIn');
    expect(auditActionOf('POST', '/user/add')).toBe('user.add');
    expect(auditActionOf('DELETE', '/role/delete')).toBe('role.change');
    expect(auditActionOf('PUT', '/cloud/setting/ocr/config')).toBe('settings.change');
    expect(auditActionOf('PUT', '/cloud/setting/reset-mfa')).toBe('mfa.change');
    expect(auditActionOf('PUT', '/user/setting/generateAccessToken')).toBe('accessToken.change');
  });

  it('leaves out reading and everyday file work', () => {
    expect(auditActionOf('GET', '/cloud/setting/ocr/config')).toBeNull();
    expect(auditActionOf('GET', '/user/userList')).toBeNull();
    expect(auditActionOf('POST', '/upload')).toBeNull();
    expect(auditActionOf('DELETE', '/delete')).toBeNull();
  });
});

describe('auditTargetOf', () => {
  it('names what was acted on and nothing secret', () => {
    const target = auditTargetOf(
      '/user/add',
      {},
      { username: 'bob', password: 'hunter2', quota: 3, secret: 'x', ids: ['a', 'b'] },
    );
    expect(target).toBe('/user/add username=bob ids=a,b');
  });

  it('keeps the code of a role, and no other code: second-factor, recovery and share codes', () => {
    expect(auditTargetOf('/role/add', {}, { code: 'editors', name: 'Editors' })).toBe(
      '/role/add name=Editors code=editors',
    );
    expect(auditTargetOf('/mfa/enable', {}, { secret: 'ABCDEFGH', code: '976460' })).toBe(
      '/mfa/enable',
    );
    expect(auditTargetOf('/mfa/disable', { code: 'JVR3X-DTRBI' }, {})).toBe('/mfa/disable');
    expect(auditTargetOf('/public/valid-share-code', {}, { shareCode: 'ab12' })).toBe(
      '/public/valid-share-code',
    );
  });
});
