import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { canRenderText, renderText } from '../search-fixtures.ts';
import { Ocr } from '../../src/modules/search/content/ocr.ts';
import { requireTool, skipWithout } from '../tools.ts';

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const LINES = ['发票号码 项目报告 会议纪要', 'Invoice Number 2024 Nimbus Cloud'];
let rendered: ReturnType<typeof renderText> | undefined;
const engines = new Ocr('/tmp').available();
const canOcr = canRenderText() && (engines.tesseract || engines.tesseractJs);

beforeAll(() => {
  if (skipWithout(canOcr)) return;
  requireTool('LibreOffice, pdftoppm and tesseract (or tesseract.js)', canOcr);
  rendered = renderText(LINES);
}, 180_000);
afterAll(() => {
  rendered = undefined;
});

const { t, admin } = useAdminApp();

async function indexed(userId: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy = await t.database.db
      .selectFrom('searchDoc')
      .select('state')
      .where('userId', '=', userId)
      .where('state', 'in', ['pending', 'running', 'pending_ocr', 'running_ocr'])
      .execute();
    if (busy.length === 0) return;
    if (Date.now() > deadline) throw new Error('OCR did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const found = async (keyword: string) => {
  const res = await call<Array<{ name: string; matchedIn: string; snippet?: string }>>(
    t.app,
    'GET',
    '/search-file',
    { token: admin.token, query: { keyword, searchOverall: true } },
  );
  expect(res.body.code).toBe(0);
  return res.body.data!;
};
const names = async (keyword: string) => (await found(keyword)).map((h) => h.name).sort();

const setOcr = (body: Record<string, unknown>, token = admin.token) =>
  call<{ enable: boolean; maxTasks: number; ocrEngine: string; engines: Record<string, boolean> }>(
    t.app,
    'PUT',
    '/cloud/setting/ocr/config',
    { token, body },
  );

describe('OCR settings', () => {
  it('are read and written by administrators only, within limits', async () => {
    const read = await call<{
      enable: boolean;
      maxTasks: number;
      ocrEngine: string;
      engines: object;
    }>(t.app, 'GET', '/cloud/setting/ocr/config', { token: admin.token });
    expect(read.body.data).toMatchObject({ enable: true, maxTasks: 1, ocrEngine: 'tesseract' });
    expect(read.body.data!.engines).toHaveProperty('tesseract');

    const saved = await setOcr({ enable: false, maxTasks: 3, ocrEngine: 'tesseract.js' });
    expect(saved.body.code).toBe(0);
    expect(saved.body.data).toMatchObject({
      enable: false,
      maxTasks: 3,
      ocrEngine: 'tesseract.js',
    });
    expect((await setOcr({ enable: true, maxTasks: 0 })).status).toBe(422);
    expect((await setOcr({ enable: true, maxTasks: 99 })).status).toBe(422);

    const bob = await makeUser(t.app, admin.token);
    expect(
      (await call(t.app, 'GET', '/cloud/setting/ocr/config', { token: bob.token })).status,
    ).toBe(403);
    expect((await setOcr({ enable: true, maxTasks: 1 }, bob.token)).status).toBe(403);
  });
});

describe.skipIf(skipWithout(canOcr))('text in pictures', () => {
  it(
    'finds Chinese (one, two, three characters) and English read from an image',
    { timeout: 180_000 },
    async () => {
      await putFile(t, owner(), '/', 'scan.png', rendered!.png);
      await indexed(admin.userId);
      expect(await names('票')).toEqual(['scan.png']);
      expect(await names('报告')).toEqual(['scan.png']);
      expect(await names('会议纪')).toEqual(['scan.png']);
      expect(await names('invoice')).toEqual(['scan.png']);
      expect(await names('nimbus cloud')).toEqual(['scan.png']);
      const [hit] = await found('发票');
      expect(hit!.matchedIn).toBe('content');
      expect(hit!.snippet).toContain('发票号码');
    },
  );

  it(
    'reads the scanned pages of a PDF, and the text layer of a PDF with Chinese',
    { timeout: 180_000 },
    async () => {
      await putFile(t, owner(), '/', 'scanned.pdf', rendered!.scannedPdf);
      await putFile(t, owner(), '/', 'typed.pdf', rendered!.pdf);
      await indexed(admin.userId);
      expect(await names('项目报告')).toEqual(['scanned.pdf', 'typed.pdf']);
      expect(await names('纪')).toEqual(['scanned.pdf', 'typed.pdf']);
      const docs = await t.database.db.selectFrom('searchDoc').select(['name', 'state']).execute();
      expect(docs.filter((d) => d.name.endsWith('.pdf')).every((d) => d.state === 'done')).toBe(
        true,
      );
    },
  );

  it(
    'skips pictures while OCR is off and reads them once it is on',
    { timeout: 180_000 },
    async () => {
      await setOcr({ enable: false, maxTasks: 1 });
      await putFile(t, owner(), '/', 'later.png', rendered!.png);
      await indexed(admin.userId);
      expect(await names('发票')).toEqual([]);
      const doc = await t.database.db
        .selectFrom('searchDoc')
        .select(['state', 'message'])
        .where('name', '=', 'later.png')
        .executeTakeFirstOrThrow();
      expect(doc).toEqual({ state: 'skipped', message: 'ocr:disabled' });
      await setOcr({ enable: true, maxTasks: 2 });
      await indexed(admin.userId);
      expect(await names('发票')).toEqual(['later.png']);
    },
  );

  it.skipIf(skipWithout(engines.tesseractJs))(
    'reads pictures with the in-process engine, offline',
    { timeout: 180_000 },
    async () => {
      await setOcr({ enable: true, maxTasks: 1, ocrEngine: 'tesseract.js' });
      await putFile(t, owner(), '/', 'wasm.png', rendered!.png);
      await indexed(admin.userId);
      expect(await names('报告')).toEqual(['wasm.png']);
      expect(await names('invoice')).toEqual(['wasm.png']);
    },
  );
});
