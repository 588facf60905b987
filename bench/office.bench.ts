/**
 * Office previews (measured, never asserted in tests): the first view of a Word document, which
 * LibreOffice converts to PDF, beside the same conversion run by hand (`soffice --convert-to
 * pdf` in a fresh profile, as Nimbus runs it); then views served from the cache, and the first
 * views of four documents asked for at once (two conversions run at a time).
 *
 * Starts a Nimbus server on a temporary data folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type NimbusServer } from '../e2e/harness.ts';
import { Report } from './harness.ts';

const USER = { username: 'bench', password: 'bench-password-1' };
const report = new Report('office');
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function soffice(work: string, profile: string, to: string, source: string): void {
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--norestore',
      '--convert-to',
      to,
      '--outdir',
      work,
      source,
    ],
    { stdio: 'ignore', env: { ...process.env, HOME: work } },
  );
}

/** A Word document of a few pages, made by LibreOffice from HTML. */
function wordDocument(work: string, name: string): string {
  const html = path.join(work, `${name}.html`);
  const paragraphs = Array.from(
    { length: 120 },
    (_, i) => `<p>Paragraph ${i + 1} of ${name}: the quick brown fox jumps over the lazy dog.</p>`,
  ).join('');
  fs.writeFileSync(html, `<html><body><h1>${name}</h1>${paragraphs}</body></html>`);
  soffice(work, path.join(work, 'make-profile'), 'docx:MS Word 2007 XML', html);
  return path.join(work, `${name}.docx`);
}

async function main(): Promise<void> {
  if (spawnSync('soffice', ['--version']).status !== 0) {
    console.log('LibreOffice is not installed: nothing to measure');
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-office-'));
  let server: NimbusServer | undefined;
  try {
    const docs = ['report', 'memo-a', 'memo-b', 'memo-c', 'memo-d'].map((n) =>
      wordDocument(work, n),
    );

    // ---- by hand: the reference ------------------------------------------------------------
    const byHand: number[] = [];
    for (let i = 0; i < 3; i++) {
      const out = fs.mkdtempSync(path.join(work, 'hand-'));
      const start = process.hrtime.bigint();
      soffice(out, path.join(out, 'profile'), 'pdf', docs[0]!);
      byHand.push(ms(start));
    }
    const reference = `soffice by hand, fresh profile: median ${median(byHand).toFixed(0)} ms of ${byHand.length}`;

    // ---- through Nimbus --------------------------------------------------------------------
    server = await startServer();
    const base = `${server.baseUrl}/api`;
    await fetch(`${base}/public/initialization`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(USER),
    });
    const login = (await (
      await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(USER),
      })
    ).json()) as { data: Record<string, string> };
    const token = login.data['nimbus-token']!;
    const root = path.join(server.dataDir, 'files', USER.username);
    fs.mkdirSync(root, { recursive: true });
    for (const doc of docs) fs.copyFileSync(doc, path.join(root, path.basename(doc)));
    await fetch(`${base}/user/setting/sync?path=%2F`, { headers: { 'nimbus-token': token } });
    let items: { id: string; name: string }[] = [];
    for (let i = 0; i < 100 && items.length < docs.length; i++) {
      const res = (await (
        await fetch(`${base}/list?currentDirectory=%2F&pageSize=50`, {
          headers: { 'nimbus-token': token },
        })
      ).json()) as { data?: { id: string; name: string }[] };
      items = res.data ?? [];
      if (items.length < docs.length) await new Promise((r) => setTimeout(r, 200));
    }
    const idOf = (name: string) => items.find((i) => i.name === `${name}.docx`)!.id;
    const view = async (id: string) => {
      const res = await fetch(`${base}/preview/office?id=${id}`, {
        headers: { 'nimbus-token': token },
      });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.headers.get('content-type') !== 'application/pdf')
        throw new Error(`no PDF: ${body.toString('utf8', 0, 200)}`);
      return body.length;
    };

    let start = process.hrtime.bigint();
    const size = await view(idOf('report'));
    report.record({
      what: 'Nimbus first view (conversion)',
      measured: `${ms(start).toFixed(0)} ms (${(size / 1024).toFixed(0)} KB PDF)`,
      reference,
    });
    const cached: number[] = [];
    for (let i = 0; i < 20; i++) {
      start = process.hrtime.bigint();
      await view(idOf('report'));
      cached.push(ms(start));
    }
    report.record({
      what: 'Nimbus cached view (median of 20)',
      measured: `${median(cached).toFixed(1)} ms`,
    });
    start = process.hrtime.bigint();
    await Promise.all(['memo-a', 'memo-b', 'memo-c', 'memo-d'].map((n) => view(idOf(n))));
    report.record({
      what: 'Nimbus first views of 4 documents at once (2 conversions at a time)',
      measured: `${ms(start).toFixed(0)} ms`,
      reference,
    });
  } finally {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  report.print();
}

await main();
