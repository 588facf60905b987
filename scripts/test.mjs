#!/usr/bin/env node
// `npm test`: every check and every test suite, in order, continuing after failures.
// Each check (formatting, lint, one type-check, the web build) counts as one test; test cases
// of the vitest suites count one by one. The last line is always `N passed, N failed`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const isWindows = process.platform === 'win32';
const MINUTE = 60_000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-npm-test-'));
const rows = [];
/** Failed test cases, named again at the end. */
const failures = [];
let current = null;
let interrupted = false;

// ---------------------------------------------------------------------------------------------
// Running children

/** The JavaScript file behind a package's command, run with this Node (no shell, no npx). */
function binOf(pkg, name = pkg) {
  const dir = path.join(root, 'node_modules', pkg);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[name];
  if (!bin) throw new Error(`${pkg} has no "${name}" command`);
  return path.join(dir, bin);
}

function npmCommand(args) {
  const execPath = process.env.npm_execpath;
  if (execPath && /\.[cm]?js$/.test(execPath)) return [process.execPath, [execPath, ...args]];
  return [isWindows ? 'npm.cmd' : 'npm', args];
}

function formatDuration(ms) {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

/**
 * Run a command with a time limit. `capture` keeps its output for printing later (checks);
 * otherwise it streams to the terminal (test suites). The child gets its own process group so
 * a timeout ends everything it started.
 */
function run(command, args, { capture = false, timeoutMs, env = {} } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
      detached: !isWindows,
      shell: isWindows && !command.endsWith('.exe'),
    });
    current = child;
    let output = '';
    if (capture) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child);
    }, timeoutMs);
    const finish = (code) => {
      clearTimeout(timer);
      current = null;
      resolve({ code, output, timedOut, ms: Date.now() - started });
    };
    child.on('error', (err) => {
      output += `\n${err.message}\n`;
      finish(127);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

/** SIGTERM to the child's whole group, SIGKILL a little later if it is still there. */
function stopGroup(child) {
  const kill = (signal) => {
    try {
      if (isWindows) child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  kill('SIGTERM');
  setTimeout(() => kill('SIGKILL'), 10_000).unref();
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    if (current) stopGroup(current);
    else finishRun();
  });
}

// ---------------------------------------------------------------------------------------------
// Reporting

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);
const green = paint('32');
const red = paint('31');
const dim = paint('2');
const bold = paint('1');

function heading(title) {
  console.log(`\n${bold(`▶ ${title}`)}`);
}

/** Print captured output, indented and cut to a readable length. */
function printOutput(output, maxLines = 150) {
  const lines = output.replace(/\s+$/, '').split('\n');
  const shown = lines.slice(0, maxLines);
  for (const line of shown) console.log(`  ${line}`);
  if (lines.length > maxLines) console.log(dim(`  … ${lines.length - maxLines} more lines`));
}

function addRow(row) {
  rows.push({ skipped: 0, note: '', ...row });
}

/** One command that passes or fails as a whole. */
async function check(name, command, args, timeoutMs = 10 * MINUTE) {
  if (interrupted) return;
  heading(name);
  const result = await run(command, args, { capture: true, timeoutMs });
  const ok = result.code === 0 && !result.timedOut;
  const note = result.timedOut ? `timed out after ${formatDuration(timeoutMs)}` : '';
  if (!ok) printOutput(result.output);
  console.log(
    `  ${ok ? green('✓ passed') : red(`✗ failed${note ? ` (${note})` : ''}`)} ${dim(formatDuration(result.ms))}`,
  );
  addRow({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, ms: result.ms, note });
  return ok;
}

/**
 * A vitest run with a JSON report. Test cases count one by one; a file that fails without a
 * failed case (it crashed) counts as one failure, and so does a run that failed without a report.
 */
async function vitestSuite(name, args, timeoutMs) {
  if (interrupted) return;
  heading(name);
  const jsonFile = path.join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  const projectsFile = path.join(tmp, `${name.replace(/\W+/g, '-')}-projects.json`);
  const result = await run(
    process.execPath,
    [
      binOf('vitest'),
      'run',
      ...args,
      '--reporter=default',
      '--reporter=json',
      `--reporter=${path.join(root, 'scripts', 'vitest-projects-reporter.mjs')}`,
      `--outputFile.json=${jsonFile}`,
    ],
    { timeoutMs, env: { NIMBUS_PROJECTS_REPORT: projectsFile } },
  );

  let report = null;
  try {
    report = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  } catch {
    // no report: counted below
  }
  let projects = null;
  try {
    projects = JSON.parse(fs.readFileSync(projectsFile, 'utf8')).projects;
  } catch {
    // optional breakdown
  }

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let crashed = 0;
  if (report) {
    passed = report.numPassedTests ?? 0;
    failed = report.numFailedTests ?? 0;
    skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? []) {
      const failedCases = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      if (file.status === 'failed' && failedCases.length === 0) {
        crashed += 1;
        failures.push(
          `${name}: ${path.relative(root, file.name)} crashed: ${firstLine(file.message)}`,
        );
      }
      for (const a of failedCases) {
        failures.push(
          `${name}: ${path.relative(root, file.name)} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`,
        );
      }
    }
  }
  const notes = [];
  if (result.timedOut) notes.push(`timed out after ${formatDuration(timeoutMs)}`);
  if (crashed) notes.push(`${crashed} file${crashed === 1 ? '' : 's'} crashed`);
  if (!report) notes.push('no report');
  failed += crashed;
  if (result.code !== 0 && failed === 0) {
    // a failure vitest did not attribute to a test: setup, unhandled error, timeout
    failed = 1;
    if (!result.timedOut && report) notes.push(`vitest exited with ${result.code}`);
  }

  const projectNames = projects ? Object.keys(projects) : [];
  if (projectNames.length > 1) {
    for (const project of projectNames) {
      const p = projects[project];
      addRow({
        name: `${name}: ${project}`,
        passed: p.passed,
        failed: p.failed + p.crashed,
        skipped: p.skipped,
        ms: null,
        note: p.crashed ? `${p.crashed} crashed` : '',
        counted: false,
      });
    }
    // The totals row: what counts, straight from vitest's JSON report.
    addRow({
      name: `${name} (total)`,
      passed,
      failed,
      skipped,
      ms: result.ms,
      note: notes.join('; '),
    });
  } else {
    addRow({ name, passed, failed, skipped, ms: result.ms, note: notes.join('; ') });
  }
  console.log(
    `  ${failed === 0 ? green(`✓ ${passed} passed`) : red(`✗ ${failed} failed, ${passed} passed`)} ${dim(formatDuration(result.ms))}`,
  );
}

/** The first line of an error message, short enough for the summary. */
function firstLine(message) {
  const text = String(message ?? '').split('\n', 1)[0];
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function printSummary() {
  const counted = rows.filter((r) => r.counted !== false);
  const totalPassed = counted.reduce((n, r) => n + r.passed, 0);
  const totalFailed = counted.reduce((n, r) => n + r.failed, 0);
  const nameWidth = Math.max(5, ...rows.map((r) => r.name.length));
  const line = (cells) =>
    `  ${cells[0].padEnd(nameWidth)}  ${cells[1].padStart(6)}  ${cells[2].padStart(6)}  ${cells[3].padStart(7)}  ${cells[4].padStart(7)}  ${cells[5]}`;
  console.log(`\n${bold('Summary')}`);
  console.log(dim(line(['suite', 'passed', 'failed', 'skipped', 'time', ''])));
  for (const r of rows) {
    const text = line([
      r.name,
      String(r.passed),
      String(r.failed),
      r.skipped ? String(r.skipped) : '',
      r.ms === null ? '' : formatDuration(r.ms),
      r.note,
    ]);
    const colored = r.failed > 0 ? red(text) : text;
    console.log(r.counted === false ? dim(text) : colored);
  }
  console.log(dim(`  total time ${formatDuration(Date.now() - startedAt)}`));
  if (interrupted) console.log(red('  interrupted: the remaining suites did not run'));
  if (failures.length > 0) {
    // repeated here so that the end of a long log names what failed
    console.log(`\n${bold('Failed')}`);
    for (const f of failures.slice(0, 30)) console.log(red(`  ${f}`));
    if (failures.length > 30) console.log(red(`  … and ${failures.length - 30} more`));
  }
  const totalSkipped = counted.reduce((n, r) => n + r.skipped, 0);
  // tests that need a program this machine lacks are skipped outside CI, and said so
  console.log(
    `${totalPassed} passed, ${totalFailed} failed${totalSkipped ? `, ${totalSkipped} skipped` : ''}`,
  );
  return totalFailed;
}

function finishRun() {
  const failed = printSummary();
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(failed > 0 || interrupted ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// The suites, in order

const startedAt = Date.now();
const tsc = binOf('typescript', 'tsc');

await check('prettier --check', process.execPath, [binOf('prettier'), '--check', '.'], 5 * MINUTE);
await check('eslint', process.execPath, [binOf('eslint'), '.'], 10 * MINUTE);

for (const project of ['packages/contract', 'server', 'web', 'e2e', 'bench']) {
  const optional = project === 'web' || project === 'e2e';
  if (optional && !fs.existsSync(path.join(root, project, 'tsconfig.json'))) {
    console.log(dim(`\n(skipping tsc -p ${project}: no tsconfig.json yet)`));
    continue;
  }
  await check(`tsc -p ${project}`, process.execPath, [tsc, '-p', project], 10 * MINUTE);
}

await vitestSuite('vitest', [], 50 * MINUTE);

if (!interrupted) {
  const [npm, npmArgs] = npmCommand(['run', 'build', '-w', 'web']);
  const built = await check('web build', npm, npmArgs, 10 * MINUTE);
  if (built) {
    await vitestSuite('e2e', ['--config', 'e2e/vitest.config.ts'], 30 * MINUTE);
  } else if (!interrupted) {
    console.log(red('\n  e2e not run: the web app did not build'));
    addRow({ name: 'e2e', passed: 0, failed: 1, ms: 0, note: 'not run: web build failed' });
  }
}

finishRun();
