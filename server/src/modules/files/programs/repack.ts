import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { findProgram } from '../../search/content/tools.ts';
import { childEnv } from '../../../lib/child-env.ts';
import { sandboxed } from '../../../lib/sandbox.ts';

// 7z and RAR archives are read by libarchive's bsdtar, which re-packs their entries as a tar
// stream on its output: the listing and the extraction then read that stream with the same
// checks as a tar of the user's own (names, links, sizes, counts), and nothing of the archive is
// ever written to disk by the program itself.

export const bsdtarPath = () => findProgram('bsdtar');

/** Archives that are read through bsdtar. */
export const REPACKED_KINDS = ['7z', 'rar'] as const;

/**
 * The entries of the archive at `file` as a tar stream (pax headers keep long and non-ASCII
 * names). The program ends when the stream is destroyed; its failure (a damaged or encrypted
 * archive) is the stream's error, with what it said.
 */
export function repackAsTar(file: string): Readable {
  const program = bsdtarPath();
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  if (!program) {
    process.nextTick(() => out.destroy(new Error('bsdtar (libarchive-tools) is not installed')));
    return out;
  }
  // the archive alone in its sandbox: a multi-volume set or a link names no other file
  const [command, argv] = sandboxed(program, ['-c', '-f', '-', '--format', 'pax', `@${file}`], {
    read: [file],
    write: [],
  });
  const child = spawn(command, argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(),
  });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (said.length < 2000) said += chunk.toString('utf8');
  });
  child.stdout.pipe(out, { end: false });
  child.once('error', (err) => out.destroy(err));
  child.once('close', (code, signal) => {
    if (code === 0) out.end();
    else if (!out.destroyed)
      out.destroy(new Error(said.trim().split('\n').pop() || `bsdtar ended (${signal ?? code})`));
  });
  out.once('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return out;
}
