import { describe, expect, it } from 'vitest';
import { childEnv } from './child-env.ts';

describe('childEnv', () => {
  it('passes where programs and locales are, and none of the server settings', () => {
    const env = childEnv(
      { OMP_THREAD_LIMIT: '1' },
      {
        PATH: '/usr/bin',
        LANG: 'C.UTF-8',
        NIMBUS_SECRET_KEY: 'k',
        NIMBUS_DATABASE_URL: 'postgres://nimbus:pw@127.0.0.1/nimbus',
        AWS_SECRET_ACCESS_KEY: 'x',
      },
    );
    expect(env).toEqual({ PATH: '/usr/bin', LANG: 'C.UTF-8', OMP_THREAD_LIMIT: '1' });
  });
});
