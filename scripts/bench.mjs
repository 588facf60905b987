#!/usr/bin/env node
// `npm run bench [-- <filter>…] [-- --write]`: run every bench/*.bench.{mjs,js,ts} file (or those
// whose names hold a filter), one after another, each in its own Node process (TypeScript through
// tsx). The disk is measured once (`dd … conv=fsync` in the temporary folder the benches keep
// their data in), printed, and handed to every bench of the run for its upload ratios. Each file
// prints its own table (bench/harness.ts); this runner adds a heading per file and a summary.
// With `--write`, the machine and every figure of the run are written to docs/BENCHMARKS.md;
// without it nothing is written. Benchmarks are measurements, not tests.
//
// NIMBUS_BENCH_DIR (the bench folder), NIMBUS_BENCH_OUTPUT (the file `--write` writes) and
// NIMBUS_BENCH_DD (a disk figure in bytes per second, instead of measuring) exist for the
// runner's own test.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const benchDir = path.resolve(process.env.NIMBUS_BENCH_DIR ?? path.join(root, 'bench'));
const output = path.resolve(
  process.env.NIMBUS_BENCH_OUTPUT ?? path.join(root, 'docs', 'BENCHMARKS.md'),
);
const args = process.argv.slice(2);
const write = args.includes('--write');
const filters = args.filter((a) => a !== '--write');

/** @type {typeof import('../bench/harness.ts')} */
const harness = await tsImport('../bench/harness.ts', import.meta.url);

const files = fs.existsSync(benchDir)
  ? fs
      .readdirSync(benchDir)
      .filter((name) => /\.bench\.(mjs|js|ts)$/.test(name))
      .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
      .sort()
  : [];

if (files.length === 0) {
  console.log(
    filters.length
      ? `No benchmark in bench/ matches ${filters.join(', ')}.`
      : 'No benchmarks yet: add bench/<name>.bench.mjs (or .ts) and `npm run bench` runs it.',
  );
  process.exit(0);
}

// the disk, once for the whole run
const given = Number(process.env[harness.DD_ENV]);
const disk =
  given > 0 ? { bytesPerSecond: given, folder: os.tmpdir(), bytes: 0 } : harness.measureDisk();
console.log(`Disk: ${harness.describeDisk(disk)}`);

const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-results-'));

function runFile(name) {
  const file = path.join(benchDir, name);
  const fileArgs = name.endsWith('.ts') ? ['--import', 'tsx', file] : [file];
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--expose-gc', ...fileArgs], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        NODE_ENV: 'production',
        [harness.DD_ENV]: String(disk.bytesPerSecond),
        [harness.RESULTS_ENV]: resultsDir,
      },
    });
    const done = (code) =>
      resolve({ name, code, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    child.on('error', (err) => {
      console.error(err.message);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const results = [];
try {
  for (const name of files) {
    console.log(`\n▶ ${name}`);
    results.push(await runFile(name));
  }

  console.log('\nBenchmarks');
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results) {
    const status = r.code === 0 ? 'ok' : `failed (exit ${r.code})`;
    console.log(`  ${r.name.padEnd(width)}  ${r.seconds.toFixed(1).padStart(7)}s  ${status}`);
  }

  if (write) {
    const runs = results.map((r) => ({
      bench: r.name.replace(/\.bench\.(mjs|js|ts)$/, ''),
      seconds: r.seconds,
      code: r.code,
    }));
    const figures = runs
      .map((r) => path.join(resultsDir, `${r.bench}.json`))
      .filter((file) => fs.existsSync(file))
      .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
    const machine = await harness.describeMachine(disk);
    fs.writeFileSync(
      output,
      harness.benchmarksMarkdown({ machine, runs, results: figures, date: new Date() }),
    );
    const shown = path.relative(root, output);
    console.log(`\nWrote ${shown.startsWith('..') ? output : shown}`);
  }
} finally {
  fs.rmSync(resultsDir, { recursive: true, force: true });
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
