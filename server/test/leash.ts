import { spawn } from 'node:child_process';

/**
 * Ties a process a test started (a database, Redis, a directory server, a Nimbus server) to the
 * test process: when the test process is gone, killed by a signal so that no teardown ran, a
 * small shell watching both ends the process too. The watcher ends by itself once the process
 * does, so a normal stop leaves nothing behind.
 */
export function leash(pid: number, parent = process.pid): void {
  const watcher = spawn(
    'sh',
    [
      '-c',
      'while kill -0 "$1" 2>/dev/null; do kill -0 "$2" 2>/dev/null || { kill -9 "$1" 2>/dev/null; exit 0; }; sleep 1; done',
      'leash',
      String(pid),
      String(parent),
    ],
    { detached: true, stdio: 'ignore' },
  );
  watcher.unref();
}
