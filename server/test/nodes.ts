import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';
import { leash } from './leash.ts';

// Nimbus nodes as separate server processes, and nginx in front of them: the topology of an
// installation that outgrew one process, on loopback.

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
if (!NGINX)
  console.warn('nginx is missing (apt-get install nginx-light): the tests behind it are skipped');

export interface Node {
  process: ChildProcess;
  base: string;
  port: number;
  /** What the node wrote to its error output (its log at `warn`). */
  log(): string;
}

/** Ends a process now (SIGKILL) and waits until it is gone. */
export function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A server process with these settings (`NIMBUS_*`), listening on loopback once it answers. */
export async function startNode(env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NIMBUS_LOG_LEVEL: 'warn',
      ...env,
      NIMBUS_PORT: String(port),
      NIMBUS_HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (child.pid) leash(child.pid);
  let log = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    log = (log + chunk).slice(-20_000);
  });
  const base = `http://127.0.0.1:${port}`;
  // a busy machine takes a while to compile and start the server: two minutes, unless it died
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${base}/api/public/ready`)).ok)
        return { process: child, base, port, log: () => log };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await kill(child);
  throw new Error(`the server did not start: ${log}`);
}

export interface Balancer {
  process: ChildProcess;
  base: string;
  /** The upstream (`127.0.0.1:port`) of every request nginx passed on so far, in order. */
  upstreams(): string[];
  stop(): Promise<void>;
}

/**
 * nginx on a free loopback port, passing requests to the nodes in turn (round robin), as a load
 * balancer in front of Nimbus is set up: no buffering either way (uploads and event streams
 * flow through), no body size limit (Nimbus sets its own).
 */
export async function startBalancer(ports: number[]): Promise<Balancer> {
  if (!NGINX) throw new Error('nginx is missing');
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-balancer-'));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${dir};`)
    .join(' ');
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log; daemon off;
events { worker_connections 1024; }
http {
  ${temp}
  log_format upstream '$upstream_addr';
  access_log ${dir}/upstreams.log upstream;
  upstream nimbus { ${ports.map((p) => `server 127.0.0.1:${p};`).join(' ')} }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 0;
    location / {
      proxy_pass http://nimbus;
      proxy_http_version 1.1;
      proxy_set_header Connection '';
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`,
  );
  const child = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  if (child.pid) leash(child.pid);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/public/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await kill(child);
      throw new Error(`nginx did not start: ${fs.readFileSync(`${dir}/error.log`, 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    process: child,
    base,
    upstreams: () =>
      fs.readFileSync(path.join(dir, 'upstreams.log'), 'utf8').split('\n').filter(Boolean),
    async stop() {
      await kill(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
