import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  benchmarksMarkdown,
  curlDownload,
  curlHeaderConfig,
  formatTable,
  parseCurlWriteOut,
  parseDd,
  Report,
  verdict,
  type Figure,
  type Machine,
} from './harness.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('the bench harness', () => {
  it('records each figure with its reference and target, in order', () => {
    const report = new Report('sample', 'A sample');
    report.record({
      what: 'a',
      measured: '1 s',
      reference: 'by hand 2 s',
      target: '< 3 s',
      met: true,
    });
    report.record({ what: 'b', measured: '9 s' });
    expect(report.figures).toEqual([
      { what: 'a', measured: '1 s', reference: 'by hand 2 s', target: '< 3 s', met: true },
      { what: 'b', measured: '9 s' },
    ]);
    expect(report.failed).toBe(false);
  });

  it('says met, MISSED, n/a, reported, or the fault', () => {
    const base: Figure = { what: 'x', measured: '1' };
    expect(verdict({ ...base, target: '< 2', met: true })).toBe('met');
    expect(verdict({ ...base, target: '< 2', met: false })).toBe('MISSED');
    expect(verdict({ ...base, target: '< 2', met: null })).toBe('n/a');
    expect(verdict(base)).toBe('reported');
    expect(verdict({ ...base, target: '< 2', met: true, fault: 'WRONG DIGEST' })).toBe(
      'WRONG DIGEST',
    );
    const report = new Report('faulty');
    report.record({ ...base, fault: 'WRONG DIGEST' });
    expect(report.failed).toBe(true);
  });

  it('prints one table, columns padded', () => {
    expect(
      formatTable([
        { what: 'trash 20 items', measured: '0.50 s', target: '< 2 s', met: true },
        {
          what: 'upload',
          measured: '100 MB/s',
          reference: 'dd 400 MB/s',
          target: '>= 60% of dd',
          met: false,
        },
      ]),
    ).toBe(
      [
        'figure          measured  reference (same run)  target        result',
        '--------------  --------  --------------------  ------------  ------',
        'trash 20 items  0.50 s                          < 2 s         met',
        'upload          100 MB/s  dd 400 MB/s           >= 60% of dd  MISSED',
      ].join('\n'),
    );
  });

  it("reads dd's summary line", () => {
    const stderr =
      '1024+0 records in\n1024+0 records out\n1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.5 s, 429 MB/s\n';
    expect(parseDd(stderr)).toEqual({ bytes: 1073741824, seconds: 2.5 });
    expect(parseDd('dd: failed to open')).toBeNull();
  });

  it("reads curl's -w line: bytes, first byte, total and status", () => {
    expect(parseCurlWriteOut('1073741824 0.001234 0.612345 200')).toEqual({
      bytes: 1073741824,
      firstByte: 0.001234,
      total: 0.612345,
      status: 200,
    });
    expect(parseCurlWriteOut('0 0.000000 0.000000 000\n')?.status).toBe(0);
    expect(parseCurlWriteOut('curl: (7) Failed to connect')).toBeNull();
    expect(parseCurlWriteOut('')).toBeNull();
  });

  it('hands curl its headers as configuration lines, quoted, never as a line break', () => {
    expect(curlHeaderConfig({ 'nimbus-token': 'a.b', odd: 'say "x" \\ y' })).toBe(
      'header = "nimbus-token: a.b"\nheader = "odd: say \\"x\\" \\\\ y"\n',
    );
    expect(() => curlHeaderConfig({ evil: 'a\r\nx-other: b' })).toThrow(/line break/);
  });

  it('writes docs/BENCHMARKS.md: the machine, then every figure with its reference and target', () => {
    const machine: Machine = {
      cores: 2,
      cpu: 'Some CPU @ 2.0GHz',
      memoryBytes: 8 * 2 ** 30,
      disk: { bytesPerSecond: 400e6, bytes: 2 ** 30, folder: '/tmp' },
      node: 'v20.20.2',
      sqlite: '3.53.2',
      postgres: '15.20 (Debian 15.20-0+deb12u1)',
    };
    const markdown = benchmarksMarkdown({
      machine,
      date: new Date('2026-11-27T18:30:00Z'),
      runs: [
        { bench: 'files', seconds: 120.4, code: 0 },
        { bench: 'media', seconds: 3, code: 1 },
      ],
      results: [
        {
          bench: 'files',
          figures: [
            {
              what: 'upload 1 GiB, 8 MiB chunks',
              measured: '300 MB/s (75% of dd)',
              reference: 'dd 400 MB/s',
              target: '>= 60% of dd',
              met: true,
            },
            { what: 'p95 | p50', measured: '40 ms', target: 'p95 < 50 ms', met: false },
            { what: 'seeding (setup)', measured: '9.0 s' },
          ],
        },
      ],
    });
    expect(markdown).toBe(
      [
        '# Benchmarks',
        '',
        'Written by `npm run bench -- --write` on 2026-11-27 18:30 UTC.',
        'Every figure stands beside its reference measured in the same run (when it has one) and its',
        'target; `met` or `MISSED` compares the figure with the target. Compare your machine with',
        'this one before comparing figures.',
        '',
        '## The machine',
        '',
        '| | |',
        '| --- | --- |',
        '| CPU | 2 cores, Some CPU @ 2.0GHz |',
        '| Memory | 8.0 GiB |',
        '| Disk | 400 MB/s (dd of 1024 MiB, conv=fsync, in /tmp) |',
        '| Node.js | v20.20.2 |',
        '| SQLite | 3.53.2 |',
        '| PostgreSQL | 15.20 (Debian 15.20-0+deb12u1) |',
        '',
        '## files',
        '',
        '`npm run bench -- files`: ran in 120 s.',
        '',
        '| Figure | Measured | Reference (same run) | Target | Result |',
        '| --- | --- | --- | --- | --- |',
        '| upload 1 GiB, 8 MiB chunks | 300 MB/s (75% of dd) | dd 400 MB/s | >= 60% of dd | met |',
        '| p95 \\| p50 | 40 ms |  | p95 < 50 ms | MISSED |',
        '| seeding (setup) | 9.0 s |  |  | reported |',
        '',
        '## media',
        '',
        '`npm run bench -- media`: FAILED (exit 1) in 3 s.',
        '',
        'No figures.',
        '',
      ].join('\n'),
    );
  });
});

describe('curlDownload', () => {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    if (req.url === '/missing') res.writeHead(404).end('no such file');
    else res.end(Buffer.alloc(100_000, 7));
  });
  const base = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads the whole body with curl, sending the headers given', async () => {
    const r = await curlDownload(`${await base}/big.bin`, { 'nimbus-token': 'secret "1"' });
    expect(r.status).toBe(200);
    expect(r.bytes).toBe(100_000);
    expect(r.total).toBeGreaterThanOrEqual(r.firstByte);
    expect(seen.at(-1)?.['nimbus-token']).toBe('secret "1"');
    expect(seen.at(-1)?.['user-agent']).toMatch(/^curl\//);
  });

  it('fails on an answer of HTTP 400 or more, and on no answer', async () => {
    await expect(curlDownload(`${await base}/missing`)).rejects.toThrow(/missing: HTTP 404/);
    const closed = http.createServer();
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as AddressInfo).port)),
    );
    await new Promise((resolve) => closed.close(resolve));
    await expect(curlDownload(`http://127.0.0.1:${port}/`)).rejects.toThrow(/exit 7/);
  });
});

// two Node processes per run, on a shared machine
describe('npm run bench', { timeout: 60_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-runner-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const benches = path.join(dir, 'bench');
  fs.mkdirSync(benches);
  // a bench of one figure: the run's disk figure, as every upload ratio of the run reads it
  fs.writeFileSync(
    path.join(benches, 'tiny.bench.ts'),
    `import { diskFigure, Report } from ${JSON.stringify(path.join(root, 'bench', 'harness.ts'))};
const report = new Report('tiny');
report.record({ what: 'the disk as a bench sees it', measured: String(diskFigure()), target: '> 0', met: true });
report.print();
`,
  );
  fs.writeFileSync(path.join(benches, 'other.bench.ts'), 'throw new Error("not this one");\n');
  /** The runner on the folder above, writing (with `--write`) to `output`. */
  const run = (output: string, ...args: string[]) =>
    new Promise<{ status: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(root, 'scripts', 'bench.mjs'), ...args], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: {
          ...process.env,
          NIMBUS_BENCH_DIR: benches,
          NIMBUS_BENCH_OUTPUT: output,
          NIMBUS_BENCH_DD: '123000000',
        },
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout }));
    });
  const quiet = path.join(dir, 'quiet.md');
  const written = path.join(dir, 'written.md');
  // both runs at once: each starts two Node processes
  const runs = Promise.all([run(quiet, 'tiny'), run(written, 'tiny', '--write')]);

  it('runs one bench file by name, prints the disk once and writes nothing without --write', async () => {
    const [result] = await runs;
    expect(result.status).toBe(0);
    expect(result.stdout.match(/Disk: /g)).toEqual(['Disk: ']);
    expect(result.stdout).toContain('Disk: 123 MB/s');
    expect(result.stdout).toContain('the disk as a bench sees it  123000000');
    expect(result.stdout).not.toContain('other.bench.ts');
    expect(fs.existsSync(quiet)).toBe(false);
  });

  it('writes the machine and the figures of the run with --write', async () => {
    const [, result] = await runs;
    expect(result.status).toBe(0);
    const markdown = fs.readFileSync(written, 'utf8');
    expect(markdown).toContain(`| Node.js | ${process.version} |`);
    expect(markdown).toMatch(/\| SQLite \| 3\.\d+\.\d+ \|/);
    expect(markdown).toMatch(/\| CPU \| \d+ cores, /);
    expect(markdown).toContain('| Disk | 123 MB/s (given by NIMBUS_BENCH_DD) |');
    expect(markdown).toContain('| the disk as a bench sees it | 123000000 |  | > 0 | met |');
    expect(markdown).not.toContain('## other');
  });
});
