#!/usr/bin/env node
// `npm start`: install what is missing, build the web app and the server bundle when their
// sources changed, then run the server in the foreground. Pure Node, no dependencies: it must
// work before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const isWindows = process.platform === 'win32';

function log(message) {
  console.log(`[nimbus] ${message}`);
}

function mtimeOf(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time of a file or of any file below a directory. */
function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Run npm with the same npm that started us when there is one; inherit the terminal. */
function npm(args) {
  const execPath = process.env.npm_execpath;
  const [command, commandArgs] =
    execPath && /\.[cm]?js$/.test(execPath)
      ? [process.execPath, [execPath, ...args]]
      : [isWindows ? 'npm.cmd' : 'npm', args];
  log(`npm ${args.join(' ')}`);
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
    shell: isWindows,
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function needsInstall() {
  const installed = mtimeOf(path.join(root, 'node_modules', '.package-lock.json'));
  if (installed === undefined) return true;
  const lock = mtimeOf(path.join(root, 'package-lock.json'));
  return lock !== undefined && lock > installed;
}

function needsBuild() {
  const built = mtimeOf(path.join(root, 'web', 'dist', 'index.html'));
  if (built === undefined) return true;
  const sources = [
    'web/src',
    'web/public',
    'web/index.html',
    'web/vite.config.ts',
    'web/package.json',
    'packages/contract/src',
  ];
  return sources.some((source) => newestMtime(path.join(root, source)) > built);
}

if (needsInstall()) {
  const code = npm(['install']);
  if (code !== 0) {
    log('npm install failed; see the messages above.');
    process.exit(code);
  }
}

if (needsBuild()) {
  const code = npm(['run', 'build', '-w', 'web']);
  if (code !== 0) {
    log('building the web app failed; see the messages above.');
    process.exit(code);
  }
}

// the server runs from its bundle (see scripts/build-server.mjs), rebuilt when a source changed
let serverBundle;
try {
  const { ensureServerBuild } = await import('./build-server.mjs');
  serverBundle = await ensureServerBuild();
} catch (err) {
  log(`building the server failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

// Settings may live in .env (see .env.example); the environment itself wins over the file.
const envFile = path.join(root, '.env');
if (fs.existsSync(envFile)) {
  process.loadEnvFile(envFile);
  log('read settings from .env');
}

const env = { ...process.env };
env.NIMBUS_DATA_DIR = path.resolve(root, env.NIMBUS_DATA_DIR || 'data');
const port = Number(env.NIMBUS_PORT || 8088);
const host =
  env.NIMBUS_HOST && !['0.0.0.0', '::'].includes(env.NIMBUS_HOST) ? env.NIMBUS_HOST : 'localhost';
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
const probeUrl = host === 'localhost' ? `http://127.0.0.1:${port}` : url;

const relativeData = path.relative(root, env.NIMBUS_DATA_DIR);
const dataShown =
  relativeData && !relativeData.startsWith('..') && !path.isAbsolute(relativeData)
    ? `./${relativeData}`
    : env.NIMBUS_DATA_DIR;
log(`starting Nimbus on ${url} (data in ${dataShown})`);

// The server runs as a child that is started again when it dies unexpectedly (an uncaught
// error, killed by the system). One that keeps dying right after its start (a port in use, a
// bad setting) is given up on, so a mistake does not loop forever.
const QUICK_DEATH_MS = 15_000;
const MAX_QUICK_DEATHS = 3;
let server;
let startedAt = 0;
let quickDeaths = 0;
let stopping = false;
let announced = false;

function startServer() {
  startedAt = Date.now();
  server = spawn(process.execPath, ['--enable-source-maps', serverBundle], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  server.on('error', (err) => {
    log(`could not start the server: ${err.message}`);
    process.exit(1);
  });
  server.on('exit', onServerExit);
  void announceWhenReady(server);
}

function onServerExit(code, signal) {
  if (stopping) process.exit(signal ? 0 : (code ?? 1));
  const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  quickDeaths = Date.now() - startedAt < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
  if (quickDeaths >= MAX_QUICK_DEATHS) {
    log(`the server ${why}, ${quickDeaths} times right after starting; giving up`);
    process.exit(code || 1);
  }
  const delay = quickDeaths === 0 ? 1000 : 2000 * quickDeaths;
  log(`the server ${why} unexpectedly; starting it again in ${delay / 1000} s`);
  setTimeout(() => {
    if (!stopping) startServer();
  }, delay);
}

function stop(signal) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null && server.signalCode === null) server.kill(signal);
  else process.exit(0);
}
// A terminal's Ctrl-C reaches the whole process group; forward once for `kill <pid>` too.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));

// `kill <pid of npm>` ends npm without passing the signal on; notice that our parent is gone
// and stop the server too, instead of leaving it running on its own.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) stop('SIGTERM');
}, 1000).unref();

// Say where Nimbus runs once it answers, so the address is the last thing on screen.
async function announceWhenReady(child) {
  const deadline = Date.now() + 120_000;
  const alive = () => !stopping && child.exitCode === null && child.signalCode === null;
  while (alive() && Date.now() < deadline) {
    try {
      const res = await fetch(`${probeUrl}/api/public/health`, {
        signal: AbortSignal.timeout(2000),
      });
      // another program could answer on the port; only announce while our server lives
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (res.ok && alive()) {
        log(
          announced
            ? `Nimbus is running again at ${url}`
            : `Nimbus is running at ${url} (Ctrl-C stops it)`,
        );
        announced = true;
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

startServer();
