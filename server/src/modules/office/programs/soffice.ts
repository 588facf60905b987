import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findProgram } from '../../search/content/tools.ts';
import { childEnv } from '../../../lib/child-env.ts';
import { sandboxed } from '../../../lib/sandbox.ts';

// LibreOffice headless on files of this server's disk (BlobStore.local / scratch): one office
// document to a PDF, in a profile of its own, stopped with everything it started on a timeout.

export const sofficePath = () => findProgram('soffice');
export const hasSoffice = () => sofficePath() !== null;

/**
 * The profile a conversion runs in: macros never run, and links to other files or sites are
 * never updated while loading (a document must not pull bytes in from elsewhere).
 */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>2</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseLocking" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

/**
 * Convert `input` to a PDF in `workDir` (a scratch folder: the profile and the output go there);
 * answers the PDF's path. A failure, a timeout or an abort throws.
 */
export async function convertToPdf(
  input: string,
  workDir: string,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<string> {
  const program = sofficePath();
  if (!program) throw new Error('LibreOffice (soffice) is not installed');
  const profile = path.join(workDir, 'profile');
  const out = path.join(workDir, 'out');
  await fs.mkdir(path.join(profile, 'user'), { recursive: true });
  await fs.mkdir(out, { recursive: true });
  await fs.writeFile(path.join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
  // the name decides the import filter; a link of a plain name keeps odd names out of argv
  const ext = path
    .extname(input)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '');
  const source = path.join(workDir, `document${ext}`);
  await fs.symlink(input, source);
  // in the sandbox: the document and the scratch folder, no other file of the drive
  const [command, argv] = sandboxed(
    program,
    [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nologo',
      '--convert-to',
      'pdf',
      '--outdir',
      out,
      source,
    ],
    { read: [await fs.realpath(input)], write: [workDir] },
  );
  await run(command, argv, { ...options, home: workDir });
  const pdf = path.join(out, 'document.pdf');
  const stat = await fs.stat(pdf).catch(() => null);
  if (!stat || stat.size === 0) throw new Error('LibreOffice made no PDF of this document');
  return pdf;
}

/** Run soffice in a process group of its own, so a timeout stops the helpers it starts too. */
function run(
  program: string,
  args: string[],
  options: { signal: AbortSignal; timeoutMs: number; home: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    options.signal.throwIfAborted();
    const child = spawn(program, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
      env: childEnv({ HOME: options.home, SAL_USE_VCLPLUGIN: 'svp' }),
    });
    let stderr = '';
    let timedOut = false;
    const stop = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    options.signal.addEventListener('abort', stop, { once: true });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    const done = (err?: Error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', stop);
      if (err) reject(err);
      else resolve();
    };
    child.on('error', (err) => done(err));
    child.on('close', (code) => {
      if (options.signal.aborted) return done(options.signal.reason as Error);
      if (timedOut) return done(new Error('LibreOffice took too long to convert this document'));
      if (code === 0) return done();
      done(new Error(`soffice failed: ${stderr.trim().slice(0, 300) || `exit ${code}`}`));
    });
  });
}
