import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config.ts';
import { BackupError, type Progress } from '../backup/backup.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

/** The configuration `npm start` runs with: the environment, then `.env`, data under the project. */
export function cliConfig(): Config {
  const envFile = path.join(root, '.env');
  if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
  const env = { ...process.env };
  env.NIMBUS_DATA_DIR = path.resolve(root, env.NIMBUS_DATA_DIR || 'data');
  return loadConfig(env);
}

/** One line that redraws itself on a terminal; nothing when the output is not one. */
export function progressLine(label: string): Progress & { end(): void } {
  const tty = process.stderr.isTTY;
  let last = 0;
  const show: Progress = (done, total) => {
    if (!tty) return;
    const now = Date.now();
    if (done !== total && now - last < 100) return;
    last = now;
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(
      `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`,
    );
  };
  return Object.assign(show, {
    end() {
      if (tty) process.stderr.write('\n');
    },
  });
}

/** Run a command's body: a known failure is one line and exit code 1. */
export async function main(usage: string, body: (arg: string) => Promise<void>): Promise<void> {
  const arg = process.argv[2];
  if (!arg || arg === '--help' || arg === '-h') {
    console.error(usage);
    process.exit(arg ? 0 : 2);
  }
  try {
    await body(arg);
  } catch (err) {
    console.error(
      `\n${err instanceof BackupError ? '' : 'unexpected error: '}${err instanceof Error ? err.message : String(err)}`,
    );
    process.exit(1);
  }
}
