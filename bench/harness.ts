/**
 * The one bench harness: every bench file records its figures in a `Report` and prints them with
 * the same table; `scripts/bench.mjs` measures the disk once per run (`dd`) for every upload
 * ratio of that run, and with `--write` turns the figures of the run into `docs/BENCHMARKS.md`.
 *
 * A figure is what was measured, the reference measured in the same run beside it (a peer
 * program, the same work by hand, the disk), its target and whether the target was met.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Figure {
  /** What is measured. */
  what: string;
  measured: string;
  /** The reference measured in the same run (absent: none). */
  reference?: string;
  /** The goal (absent: the figure is only reported). */
  target?: string;
  /** Whether the target was met; null when it could not be compared this run. */
  met?: boolean | null;
  /** A wrong result (a bad digest…): shown instead of met/MISSED, and the bench fails. */
  fault?: string;
}

/** What a bench file leaves for the run's `--write`: its figures. */
export interface BenchResult {
  bench: string;
  title?: string;
  figures: Figure[];
}

/** `met`, `MISSED`, `n/a` (a target not compared this run), `reported` or the fault. */
export function verdict(figure: Figure): string {
  if (figure.fault) return figure.fault;
  if (figure.target === undefined) return 'reported';
  if (figure.met === undefined || figure.met === null) return 'n/a';
  return figure.met ? 'met' : 'MISSED';
}

const COLUMNS = ['figure', 'measured', 'reference (same run)', 'target', 'result'];

const cells = (f: Figure) => [f.what, f.measured, f.reference ?? '', f.target ?? '', verdict(f)];

/** The table a bench prints: one line per figure, columns padded. */
export function formatTable(figures: Figure[]): string {
  const rows = figures.map(cells);
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(COLUMNS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Where a bench file leaves its figures for `--write` (set by `scripts/bench.mjs`). */
export const RESULTS_ENV = 'NIMBUS_BENCH_RESULTS';
/** The run's disk figure in bytes per second (set by `scripts/bench.mjs`). */
export const DD_ENV = 'NIMBUS_BENCH_DD';

export class Report {
  readonly figures: Figure[] = [];

  /** `bench` names the file (`files` for `files.bench.ts`); `title` heads its table. */
  constructor(
    readonly bench: string,
    readonly title?: string,
  ) {}

  record(figure: Figure): Figure {
    this.figures.push(figure);
    return figure;
  }

  /** A fault was recorded: the bench must exit non-zero. */
  get failed(): boolean {
    return this.figures.some((f) => f.fault);
  }

  /** Print the table, leave the figures for the run's `--write`, and fail on a fault. */
  print(log: (line: string) => void = console.log): void {
    if (this.title) log(`\n${this.title}`);
    log(formatTable(this.figures));
    const dir = process.env[RESULTS_ENV];
    if (dir) {
      const result: BenchResult = { bench: this.bench, title: this.title, figures: this.figures };
      fs.writeFileSync(path.join(dir, `${this.bench}.json`), JSON.stringify(result));
    }
    if (this.failed) process.exitCode = 1;
  }
}

// ---- downloads, read by curl ------------------------------------------------------------------

/** One download as curl saw it. */
export interface CurlDownload {
  /** Bytes of the body. */
  bytes: number;
  /** Seconds from the start to the first byte of the answer (curl's `time_starttransfer`). */
  firstByte: number;
  /** Seconds from the start to the last byte. */
  total: number;
  /** The HTTP status (0: no answer). */
  status: number;
}

/** What curl prints after a download (`-w`): bytes, first byte, total, status. */
export const CURL_WRITE_OUT = '%{size_download} %{time_starttransfer} %{time_total} %{http_code}';

/** curl's `-w` line (`CURL_WRITE_OUT`), or null when it is not one. */
export function parseCurlWriteOut(out: string): CurlDownload | null {
  const m = /^(\d+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d{3})$/.exec(out.trim());
  if (!m) return null;
  return {
    bytes: Number(m[1]),
    firstByte: Number(m[2]),
    total: Number(m[3]),
    status: Number(m[4]),
  };
}

/**
 * curl's configuration for the request headers (`header = "name: value"`, the same as `-H`),
 * given on its standard input so that a token never shows in the process list or in the URL.
 */
export function curlHeaderConfig(headers: Record<string, string>): string {
  const quoted = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return Object.entries(headers)
    .map(([name, value]) => {
      if (/[\r\n]/.test(name + value)) throw new Error(`header ${name}: a line break`);
      return `header = ${quoted(`${name}: ${value}`)}\n`;
    })
    .join('');
}

/**
 * Download `url` with curl to nowhere, the way every download figure is read: a client faster
 * than both servers compared, so the figure measures the server. Rejects when curl is missing,
 * fails, or the answer is HTTP 400 or more. Put credentials in `headers`, never in the URL.
 */
export function curlDownload(
  url: string,
  headers: Record<string, string> = {},
): Promise<CurlDownload> {
  return runCurl([], url, headers);
}

/**
 * Send the file at `file` with curl (`-T`, a PUT), the way the WebDAV upload figure is read;
 * `bytes` is then what was sent and `total` the seconds until the answer came. Rejects like
 * `curlDownload`.
 */
export function curlUpload(
  url: string,
  file: string,
  headers: Record<string, string> = {},
): Promise<CurlDownload> {
  return runCurl(['-T', file], url, headers, '%{size_upload}');
}

function runCurl(
  extra: string[],
  url: string,
  headers: Record<string, string>,
  size = '%{size_download}',
): Promise<CurlDownload> {
  const writeOut = CURL_WRITE_OUT.replace('%{size_download}', size);
  return new Promise((resolve, reject) => {
    const curl = spawn(
      'curl',
      ['-sS', ...extra, '-o', '/dev/null', '-w', writeOut, '-K', '-', url],
      { env: { ...process.env, LC_ALL: 'C' }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    curl.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    curl.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    curl.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new Error('curl is not installed: every download figure is read with curl')
          : err,
      ),
    );
    curl.on('close', (code) => {
      const result = parseCurlWriteOut(stdout);
      if (code !== 0 || !result)
        reject(new Error(`curl ${url}: exit ${code}: ${stderr.trim() || stdout.trim()}`));
      else if (result.status >= 400) reject(new Error(`${url}: HTTP ${result.status}`));
      else resolve(result);
    });
    // a curl that never started or stopped early is reported by 'error' or 'close' above
    curl.stdin.on('error', () => {});
    curl.stdin.end(curlHeaderConfig(headers));
  });
}

// ---- the disk --------------------------------------------------------------------------------

export interface DiskFigure {
  /** Bytes per second `dd` wrote, synced (conv=fsync). */
  bytesPerSecond: number;
  /** The folder it wrote in: the temporary folder the benches keep their data in. */
  folder: string;
  bytes: number;
}

/** `dd`'s summary line: bytes copied and seconds, in the C locale. */
export function parseDd(stderr: string): { bytes: number; seconds: number } | null {
  const m = /^(\d+) bytes\b.*copied, ([\d.]+) s\b/m.exec(stderr);
  if (!m) return null;
  return { bytes: Number(m[1]), seconds: Number(m[2]) };
}

/**
 * Write `mib` MiB of zeros with `dd … conv=fsync` in a fresh folder under the temporary folder,
 * on the same disk as the benches' data folders, and remove it.
 */
export function measureDisk(mib = Number(process.env.NIMBUS_BENCH_DD_MIB ?? 1024)): DiskFigure {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-dd-'));
  try {
    const run = spawnSync(
      'dd',
      ['if=/dev/zero', `of=${path.join(dir, 'dd.bin')}`, 'bs=1M', `count=${mib}`, 'conv=fsync'],
      { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
    );
    const parsed = parseDd(run.stderr ?? '');
    if (run.status !== 0 || !parsed || parsed.seconds <= 0)
      throw new Error(`dd failed: ${run.error?.message ?? run.stderr}`);
    return {
      bytesPerSecond: parsed.bytes / parsed.seconds,
      folder: os.tmpdir(),
      bytes: parsed.bytes,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `512 MB/s (dd of 1024 MiB, conv=fsync, in /tmp)`; a figure given, not measured, says so. */
export const describeDisk = (disk: DiskFigure) =>
  `${(disk.bytesPerSecond / 1e6).toFixed(0)} MB/s ` +
  (disk.bytes > 0
    ? `(dd of ${(disk.bytes / 2 ** 20).toFixed(0)} MiB, conv=fsync, in ${disk.folder})`
    : `(given by ${DD_ENV})`);

/**
 * The run's disk figure: the one `scripts/bench.mjs` measured and printed for the whole run, or,
 * for a bench file started on its own, measured now and printed.
 */
export function diskFigure(): number {
  const given = Number(process.env[DD_ENV]);
  if (given > 0) return given;
  const disk = measureDisk();
  console.log(`Disk: ${describeDisk(disk)}`);
  process.env[DD_ENV] = String(disk.bytesPerSecond);
  return disk.bytesPerSecond;
}

// ---- the machine and docs/BENCHMARKS.md --------------------------------------------------------

export interface Machine {
  cores: number;
  cpu: string;
  memoryBytes: number;
  disk: DiskFigure;
  node: string;
  sqlite: string;
  postgres: string;
}

function postgresVersion(): string {
  const bin = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    ...(bin.status === 0 ? [path.join(bin.stdout.trim(), 'postgres')] : []),
    'postgres',
  ];
  for (const candidate of candidates) {
    const run = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (run.status === 0) return run.stdout.trim().replace(/^postgres \(PostgreSQL\) /, '');
  }
  return 'not installed';
}

export async function describeMachine(disk: DiskFigure): Promise<Machine> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(':memory:');
  const sqlite = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
  db.close();
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    memoryBytes: os.totalmem(),
    disk,
    node: process.version,
    sqlite,
    postgres: postgresVersion(),
  };
}

/** How one bench file of the run ended. */
export interface BenchRun {
  bench: string;
  seconds: number;
  /** The process's exit code (0: it ran through). */
  code: number;
}

const mdCell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** `docs/BENCHMARKS.md`: the machine, then every figure of the run with its reference and target. */
export function benchmarksMarkdown(input: {
  machine: Machine;
  runs: BenchRun[];
  results: BenchResult[];
  date: Date;
}): string {
  const { machine, runs, results, date } = input;
  const out: string[] = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench -- --write\` on ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    'Every figure stands beside its reference measured in the same run (when it has one) and its',
    'target; `met` or `MISSED` compares the figure with the target. Compare your machine with',
    'this one before comparing figures.',
    '',
    '## The machine',
    '',
    '| | |',
    '| --- | --- |',
    `| CPU | ${machine.cores} cores, ${mdCell(machine.cpu)} |`,
    `| Memory | ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB |`,
    `| Disk | ${mdCell(describeDisk(machine.disk))} |`,
    `| Node.js | ${machine.node} |`,
    `| SQLite | ${mdCell(machine.sqlite)} |`,
    `| PostgreSQL | ${mdCell(machine.postgres)} |`,
  ];
  const byBench = new Map(results.map((r) => [r.bench, r]));
  for (const run of runs) {
    const result = byBench.get(run.bench);
    out.push('', `## ${run.bench}`, '');
    const status = run.code === 0 ? 'ran' : `FAILED (exit ${run.code})`;
    out.push(`\`npm run bench -- ${run.bench}\`: ${status} in ${run.seconds.toFixed(0)} s.`);
    if (result?.title) out.push(`${mdCell(result.title)}.`);
    if (!result || result.figures.length === 0) {
      out.push('', 'No figures.');
      continue;
    }
    out.push('', '| Figure | Measured | Reference (same run) | Target | Result |');
    out.push('| --- | --- | --- | --- | --- |');
    for (const figure of result.figures) out.push(`| ${cells(figure).map(mdCell).join(' | ')} |`);
  }
  return `${out.join('\n')}\n`;
}

/** A free port on the loopback address, for a server a bench starts. */
export { freePort } from '../server/test/free-port.ts';

/** The value below which `p` percent of `values` fall (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Numbers that look random and are the same in every run from the same start (a linear
 * congruential generator), so a drive built for a bench is built the same each time.
 */
export function seededRandom(start: number) {
  let seed = start;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  return {
    random,
    pick: <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!,
    /** From the start again. */
    reset: () => {
      seed = start;
    },
  };
}

/** Words file names are made of in the search benches: Chinese and English. */
export const WORDS_ZH =
  '项目 报告 会议 纪要 合同 发票 照片 旅行 北京 上海 设计 方案 财务 预算 简历 计划 总结 培训 学习 笔记 产品 需求 测试 用户 数据 分析 年度 季度 客户 市场 招聘 论文 作业 课程 图纸 报价 采购 库存 物流 审计'.split(
    ' ',
  );
export const WORDS_EN =
  'report final draft invoice photo budget meeting notes design plan summary contract resume review backup project data analysis client market slides scan receipt travel holiday family music video code release'.split(
    ' ',
  );
