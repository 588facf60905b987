import { ErrorCode, type LdapConfig } from '@nimbus/contract';
import { Client, EqualityFilter, InvalidCredentialsError } from 'ldapts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, forbidden } from '../../lib/errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { SettingsService } from '../settings/settings.service.ts';

/** How long a directory may take to answer before the sign-in gives up on it. */
const LDAP_TIMEOUT_MS = 5_000;

const unreachable = (why: string) =>
  new AppError(ErrorCode.OFFLINE, `The LDAP server cannot be reached: ${why}`, undefined, 503);

/**
 * Sign-in against a directory (LDAP): the service account finds the person's entry by the
 * login attribute, then the person's own password is checked by binding as that entry. The
 * password is never kept here; the service account's is sealed at rest and never sent back.
 */
export class LdapService {
  constructor(
    private readonly settings: SettingsService,
    private readonly box: SecretBox,
  ) {}

  /** The configuration as administrators see it: the password left out. */
  async view(actor: Actor): Promise<LdapConfig> {
    requireAuthority(actor, 'cloud:set:sync');
    return { ...(await this.stored()), password: '' };
  }

  /** Only the creator changes it (API-NOTES §1.12): it decides who may get in. */
  async update(actor: Actor, config: LdapConfig): Promise<void> {
    if (!actor.isCreator) throw forbidden('Only the drive’s creator changes LDAP sign-in');
    const before = await this.stored();
    const password = config.password ? this.box.seal(config.password) : before.password;
    if (config.enable && (!config.ldapServer || !config.baseDN))
      throw badParameter('ldapServer and baseDN: needed to turn LDAP sign-in on');
    await this.settings.set('ldap', { ...config, password });
  }

  /** Try a configuration without keeping it: the service account binds and the base is read. */
  async test(actor: Actor, config: LdapConfig): Promise<void> {
    requireAuthority(actor, 'cloud:set:sync');
    const stored = await this.stored();
    const password = config.password || (stored.password ? this.box.unseal(stored.password) : '');
    await this.withClient(config.ldapServer, async (client) => {
      await this.bindService(client, config.userDN, password);
      try {
        await client.search(config.baseDN, { scope: 'base', sizeLimit: 1, attributes: ['dn'] });
      } catch (err) {
        throw badParameter(
          `baseDN: the directory has no entry "${config.baseDN}" (${message(err)})`,
        );
      }
    });
  }

  async enabled(): Promise<boolean> {
    return (await this.stored()).enable;
  }

  /** The default roles of accounts made by an LDAP sign-in. */
  async defaultRoles(): Promise<string[]> {
    return (await this.stored()).defaultRoleList;
  }

  /**
   * Whether the directory accepts this username and password. An empty password is refused
   * before anything is sent (an LDAP bind without one is anonymous and "succeeds").
   */
  async verify(username: string, password: string): Promise<boolean> {
    const config = await this.stored();
    if (!config.enable || !password || !username) return false;
    const servicePassword = config.password ? this.box.unseal(config.password) : '';
    return this.withClient(config.ldapServer, async (client) => {
      await this.bindService(client, config.userDN, servicePassword);
      const { searchEntries } = await client.search(config.baseDN, {
        scope: 'sub',
        filter: new EqualityFilter({ attribute: config.loginName, value: username }),
        sizeLimit: 2,
        attributes: ['dn'],
      });
      // nobody, or a name that is not one person's: no sign-in
      if (searchEntries.length !== 1) return false;
      try {
        await client.bind(searchEntries[0]!.dn, password);
        return true;
      } catch (err) {
        if (err instanceof InvalidCredentialsError) return false;
        throw err;
      }
    });
  }

  private async bindService(client: Client, userDN: string, password: string): Promise<void> {
    if (!userDN) return;
    try {
      await client.bind(userDN, password);
    } catch (err) {
      if (err instanceof InvalidCredentialsError)
        throw badParameter('userDN: the directory refused this bind DN and password');
      throw err;
    }
  }

  private async withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
    if (!url) throw badParameter('ldapServer: no LDAP server is set');
    const client = new Client({
      url,
      timeout: LDAP_TIMEOUT_MS,
      connectTimeout: LDAP_TIMEOUT_MS,
    });
    try {
      return await work(client);
    } catch (err) {
      if (err instanceof AppError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code && /^E[A-Z]+/.test(code)) throw unreachable(code);
      if (/timeout|connect/i.test(message(err))) throw unreachable(message(err));
      throw err;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  private async stored(): Promise<LdapConfig> {
    return this.settings.get('ldap');
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
