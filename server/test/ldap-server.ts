import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { programOrFail } from './tools.ts';
import { leash } from './leash.ts';
import { freePort } from './free-port.ts';

export const LDAP_BASE = 'dc=nimbus,dc=test';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_BASE}`;

export interface LdapServer {
  url: string;
  adminPassword: string;
  /** People in the directory: uid → password. */
  people: Record<string, string>;
  stop(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  // slapd starts in well under a second on a quiet machine; a busy one gets half a minute
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('slapd did not start listening');
}

/**
 * A real OpenLDAP server for one test file: its own folder, loaded before it starts (slapadd),
 * listening on a free loopback port; `stop` ends it by its process id and removes the folder.
 * Passwords are generated for each run.
 */
export async function startLdap(): Promise<LdapServer> {
  const slapd = programOrFail('slapd');
  const slapadd = programOrFail('slapadd');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-ldap-'));
  fs.mkdirSync(path.join(dir, 'db'));
  const secret = () => Math.random().toString(36).slice(2, 12);
  const adminPassword = secret();
  const people: Record<string, string> = { alice: secret(), bob: secret(), 'zhang.wei': secret() };
  const conf = path.join(dir, 'slapd.conf');
  fs.writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/nis.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${dir}/slapd.pid`,
      'database mdb',
      'maxsize 10485760',
      `suffix "${LDAP_BASE}"`,
      `rootdn "${LDAP_ADMIN_DN}"`,
      `rootpw ${adminPassword}`,
      `directory ${dir}/db`,
      'index objectClass eq',
      'index uid eq',
      '',
    ].join('\n'),
  );
  const entries = [
    `dn: ${LDAP_BASE}\nobjectClass: dcObject\nobjectClass: organization\ndc: nimbus\no: Nimbus test`,
    `dn: ou=people,${LDAP_BASE}\nobjectClass: organizationalUnit\nou: people`,
    ...Object.entries(people).map(
      ([uid, password]) =>
        `dn: uid=${uid},ou=people,${LDAP_BASE}\nobjectClass: inetOrgPerson\nuid: ${uid}\ncn: ${uid}\nsn: ${uid}\nuserPassword: ${password}`,
    ),
  ];
  const ldif = path.join(dir, 'base.ldif');
  fs.writeFileSync(ldif, `${entries.join('\n\n')}\n`);
  const loaded = spawnSync(slapadd, ['-f', conf, '-l', ldif], { encoding: 'utf8' });
  if (loaded.status !== 0) throw new Error(`slapadd failed: ${loaded.stderr}`);
  const port = await freePort();
  const child = spawn(slapd, ['-d', '0', '-f', conf, '-h', `ldap://127.0.0.1:${port}/`], {
    stdio: 'ignore',
  });
  if (child.pid) leash(child.pid);
  try {
    await waitForPort(port, child);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url: `ldap://127.0.0.1:${port}`,
    adminPassword,
    people,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
