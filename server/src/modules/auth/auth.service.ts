import { ErrorCode, TOKEN_HEADER, type LoginResult } from '@nimbus/contract';
import type { Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/password.ts';
import { ADMIN_ROLE } from '../menus/menu-seed.ts';
import type { UsersService } from '../users/users.service.ts';
import type { SessionService } from './session.service.ts';
import type { LoginThrottle } from './throttle.ts';

// A fixed hash to verify against when the user does not exist, so timing does not tell.
const DUMMY_HASH =
  'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export interface LoginInput {
  username: string;
  password: string;
  rememberMe: boolean;
  ip: string;
  userAgent?: string;
}

export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottle,
  ) {}

  async login(input: LoginInput): Promise<LoginResult & { token: string }> {
    const username = input.username.trim();
    await this.throttle.assertAllowed(username, input.ip);
    const user = await this.users.repo.findByUsername(username);
    const valid = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !valid) {
      await this.throttle.recordFailure(username, input.ip);
      throw new AppError(ErrorCode.ERROR, 'Wrong username or password', undefined, 401);
    }
    await this.throttle.recordSuccess(username);
    const token = await this.sessions.create(user.id, input.rememberMe, {
      ip: input.ip,
      userAgent: input.userAgent,
    });
    return { token, [TOKEN_HEADER]: token, userId: user.id, username: user.username };
  }

  async logout(actor: Actor): Promise<void> {
    await this.sessions.revoke(actor.sessionId);
  }

  /** The actor a background job works for, with the user's current grants. */
  async actorFor(userId: string): Promise<Actor | null> {
    const user = await this.users.repo.findById(userId);
    if (!user) return null;
    const grants = await this.users.repo.grantsOf(user.id);
    return {
      id: user.id,
      username: user.username,
      isCreator: user.isCreator === 1,
      isAdmin: user.isCreator === 1 || grants.roleCodes.includes(ADMIN_ROLE.code),
      authorities: new Set(grants.authorities),
      sessionId: '',
    };
  }

  /** The actor behind a token, or null. */
  async authenticate(token: string): Promise<{ actor: Actor; refreshedToken?: string } | null> {
    const session = await this.sessions.resolve(token);
    if (!session) return null;
    const user = await this.users.repo.findById(session.userId);
    if (!user) return null;
    const grants = await this.users.repo.grantsOf(user.id);
    const isAdmin = user.isCreator === 1 || grants.roleCodes.includes(ADMIN_ROLE.code);
    return {
      actor: {
        id: user.id,
        username: user.username,
        isCreator: user.isCreator === 1,
        isAdmin,
        authorities: new Set(grants.authorities),
        sessionId: session.sessionId,
      },
      refreshedToken: session.refreshedToken,
    };
  }
}
