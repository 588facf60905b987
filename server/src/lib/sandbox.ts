import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A program that reads an uploaded file (LibreOffice above all) runs in a sandbox made by
 * bubblewrap, where it sees the system's programs, libraries and fonts, the file it was given
 * and the folder it writes to, and nothing else: no other file of the drive (a document linking
 * `/srv/nimbus/files/bob/photo.png` shows an empty frame, not Bob's photo), no network (a link to
 * an address inside the network fetches nothing), no other process.
 *
 * Where bubblewrap is missing or cannot make namespaces (a container that forbids them), the
 * program runs as before, and `sandboxState()` says so for the server to warn once.
 */

/** What the programs need of the system, read only; what is absent here is skipped. */
const SYSTEM_PATHS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib64',
  '/lib32',
  '/etc/alternatives',
  '/etc/fonts',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/libreoffice',
  '/etc/ImageMagick-6',
  '/etc/localtime',
  '/etc/mime.types',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/var/cache/fontconfig',
  '/var/lib/dpkg/alternatives',
];

export interface SandboxPaths {
  /** Files and folders the program reads. */
  read: string[];
  /** Folders the program writes to (its output, its profile, its HOME). */
  write: string[];
}

let bwrap: string | null | undefined;

function findBwrap(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'bwrap');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function baseArgs(): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--proc', '/proc', '--dev', '/dev'];
  for (const p of SYSTEM_PATHS) args.push('--ro-bind-try', p, p);
  args.push('--tmpfs', '/tmp', '--setenv', 'TMPDIR', '/tmp');
  return args;
}

/** The sandbox program when it works here (probed once); null otherwise. */
function sandboxProgram(): string | null {
  if (bwrap !== undefined) return bwrap;
  const found = findBwrap();
  bwrap = null;
  if (found) {
    const probe = spawnSync(found, [...baseArgs(), '--', 'true'], {
      stdio: 'ignore',
      timeout: 10_000,
    });
    if (probe.status === 0) bwrap = found;
  }
  return bwrap;
}

/** Whether programs run sandboxed here, and if not, why (for one warning at start). */
export function sandboxState(): { sandboxed: boolean; reason?: string } {
  if (sandboxProgram()) return { sandboxed: true };
  return {
    sandboxed: false,
    reason: findBwrap()
      ? 'bubblewrap cannot create namespaces here'
      : 'bubblewrap (bwrap) is not installed',
  };
}

/**
 * The command that runs `program args` in the sandbox, seeing `paths` besides the system's;
 * the plain command where no sandbox can be made.
 */
export function sandboxed(
  program: string,
  args: string[],
  paths: SandboxPaths,
): [string, string[]] {
  const wrapper = sandboxProgram();
  if (!wrapper) return [program, args];
  const binds: string[] = [];
  for (const p of paths.read) binds.push('--ro-bind', p, p);
  for (const p of paths.write) binds.push('--bind', p, p);
  return [wrapper, [...baseArgs(), ...binds, '--chdir', '/tmp', '--', program, ...args]];
}
