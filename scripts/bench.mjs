#!/usr/bin/env node
// `npm run bench [-- <filter>]`: run every bench/*.bench.{mjs,js,ts} file, one after another,
// each in its own Node process (TypeScript through tsx). Each file prints its own table; this
// harness adds a heading per file and a summary. Benchmarks are measurements, not tests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const benchDir = path.join(root, 'bench');
const filters = process.argv.slice(2);

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

function runFile(name) {
  const file = path.join(benchDir, name);
  const args = name.endsWith('.ts') ? ['--import', 'tsx', file] : [file];
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--expose-gc', ...args], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
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
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
