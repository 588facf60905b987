import { describe, expect, it } from 'vitest';
import type { NewFileRow } from '../../src/modules/files/files.repo.ts';
import { ADMIN, call, makeUser, putFile, type TestApp, useAdminApp } from '../harness.ts';
import { docx, epub, pptx, textPdf, xlsx } from '../search-fixtures.ts';
import { hasProgram, requireTool, skipWithout } from '../tools.ts';

interface Hit {
  id: string;
  name: string;
  path: string;
  isFolder: boolean;
  matchedIn: 'name' | 'tag' | 'content';
  snippet?: string;
  highlight: string[];
  tags: Array<{ name: string }>;
}

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

/** Every document of the user has its text (or has failed): the content jobs are done. */
export async function indexed(app: TestApp, userId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy = await app.database.db
      .selectFrom('searchDoc')
      .select(['state'])
      .where('userId', '=', userId)
      .where('live', '=', 1)
      .where('state', 'in', ['pending', 'running', 'pending_ocr', 'running_ocr'])
      .execute();
    if (busy.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`still indexing: ${busy.map((b) => b.state).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const search = async (
  keyword: string,
  extra: Record<string, string | number | boolean> = {},
  token = admin.token,
) => {
  const res = await call<Hit[]>(t.app, 'GET', '/search-file', {
    token,
    query: { keyword, searchOverall: true, ...extra },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return { hits: res.body.data!, count: res.body.count! };
};
const names = async (keyword: string, extra: Record<string, string | number | boolean> = {}) =>
  (await search(keyword, extra)).hits.map((h) => h.name).sort();

const newFolder = async (name: string, currentDirectory = '/') => {
  const res = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
    token: admin.token,
    query: { filename: name, currentDirectory },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!.id;
};

describe('names', () => {
  it('finds Chinese names by one, two and three characters, Latin words by prefix, and mixed names', async () => {
    await putFile(t, owner(), '/', '项目报告2024.docx', 'x');
    await putFile(t, owner(), '/', '会议纪要.txt', 'x');
    await putFile(t, owner(), '/', 'Quarterly Report final.pdf', 'x');
    await putFile(t, owner(), '/', 'IMG_20230101_旅行照片.jpg', 'x');
    await newFolder('年度计划');

    // one character, anywhere in a name
    expect(await names('报')).toEqual(['项目报告2024.docx']);
    expect(await names('要')).toEqual(['会议纪要.txt']);
    // two characters, also across word boundaries (目报)
    expect(await names('报告')).toEqual(['项目报告2024.docx']);
    expect(await names('目报')).toEqual(['项目报告2024.docx']);
    // three characters
    expect(await names('项目报')).toEqual(['项目报告2024.docx']);
    expect(await names('议纪要')).toEqual(['会议纪要.txt']);
    expect(await names('年度计')).toEqual(['年度计划']);
    // not a substring: nothing
    expect(await names('报项')).toEqual([]);

    // Latin by prefix, any case
    expect(await names('rep')).toEqual(['Quarterly Report final.pdf']);
    expect(await names('QUARTER')).toEqual(['Quarterly Report final.pdf']);
    // any part of a name: the middle of a word too
    expect(await names('port')).toEqual(['Quarterly Report final.pdf']);
    // mixed Chinese and Latin, and pieces of IMG_20230101
    expect(await names('报告 2024')).toEqual(['项目报告2024.docx']);
    expect(await names('img 旅行')).toEqual(['IMG_20230101_旅行照片.jpg']);
    expect(await names('2023')).toEqual(['IMG_20230101_旅行照片.jpg']);
    expect(await names('docx')).toEqual(['项目报告2024.docx']);
  });

  it('ranks a name equal to the keyword first, then names beginning with it, then the rest', async () => {
    await putFile(t, owner(), '/', 'my notes.txt', 'x');
    await putFile(t, owner(), '/', 'notes', 'x');
    await putFile(t, owner(), '/', 'notes-2024.md', 'x');
    const { hits, count } = await search('notes');
    expect(count).toBe(3);
    expect(hits.map((h) => h.name)).toEqual(['notes', 'notes-2024.md', 'my notes.txt']);
    expect(hits[0]!.highlight).toEqual(['notes']);
  });

  it('finds any part of a name: inside words, one letter, CJK, and %, _, \\ and quotes as typed', async () => {
    await putFile(t, owner(), '/', 'report.txt', 'x');
    await putFile(t, owner(), '/', '年度报告.docx', 'x');
    await putFile(t, owner(), '/', '100% done.txt', 'x');
    await putFile(t, owner(), '/', '1000 done.txt', 'x');
    await putFile(t, owner(), '/', 'a_b.txt', 'x');
    await putFile(t, owner(), '/', 'axb.txt', 'x');
    await putFile(t, owner(), '/', "it's here.md", 'x');
    await putFile(t, owner(), '/', 'Zebra.png', 'x');
    for (let i = 0; i < 12; i++)
      await putFile(t, owner(), '/', `item_2${String(i).padStart(2, '0')}.txt`, 'x');
    await putFile(t, owner(), '/', 'item 3.txt', 'x');
    await putFile(t, owner(), '/', 'item-2.txt', 'x');

    expect(await names('port')).toEqual(['report.txt']);
    expect(await names('EPO')).toEqual(['report.txt']);
    const items = await search('item_2', { pageSize: 50 });
    expect(items.count).toBe(12);
    expect(items.hits.every((h) => h.name.startsWith('item_2'))).toBe(true);
    // one letter
    expect(await names('z')).toEqual(['Zebra.png']);
    expect(await names('b')).toEqual(['Zebra.png', 'a_b.txt', 'axb.txt']);
    // CJK substrings of two and one characters, and longer
    expect(await names('报告')).toEqual(['年度报告.docx']);
    expect(await names('度')).toEqual(['年度报告.docx']);
    expect(await names('年度报告')).toEqual(['年度报告.docx']);
    // wildcards and escapes of SQL are plain characters
    expect(await names('%')).toEqual(['100% done.txt']);
    expect(await names('0% d')).toEqual(['100% done.txt']);
    expect(await names('a_b')).toEqual(['a_b.txt']);
    expect(await names('_')).toEqual([
      'a_b.txt',
      ...Array.from({ length: 12 }, (_, i) => `item_2${String(i).padStart(2, '0')}.txt`),
    ]);
    expect(await names('\\')).toEqual([]);
    expect(await names("it's")).toEqual(["it's here.md"]);
    expect(await names('"')).toEqual([]);
    // the same through the other query path (a filter, a sort)
    expect(await names('port', { sortableProp: 'name' })).toEqual(['report.txt']);
    expect(await names('_', { queryFileType: 'document' })).toEqual([
      'a_b.txt',
      ...Array.from({ length: 12 }, (_, i) => `item_2${String(i).padStart(2, '0')}.txt`),
    ]);
    expect(await names('报告', { searchOverall: false, currentDirectory: '/' })).toEqual([
      '年度报告.docx',
    ]);
  });

  it('lists names beginning with the keyword first, by relevance and under a sort', async () => {
    await putFile(t, owner(), '/', 'a-report.txt', 'x'.repeat(300));
    await putFile(t, owner(), '/', 'report-b.txt', 'x'.repeat(10));
    await putFile(t, owner(), '/', 'zz report.txt', 'x'.repeat(200));
    await putFile(t, owner(), '/', 'reports.txt', 'x'.repeat(100));
    const byRelevance = (await search('rep')).hits.map((h) => h.name);
    expect(byRelevance.slice(0, 2).sort()).toEqual(['report-b.txt', 'reports.txt']);
    expect(byRelevance.slice(2).sort()).toEqual(['a-report.txt', 'zz report.txt']);
    const bySize = (await search('rep', { sortableProp: 'size', order: 'descending' })).hits;
    expect(bySize.map((h) => h.name)).toEqual([
      'reports.txt',
      'report-b.txt',
      'a-report.txt',
      'zz report.txt',
    ]);
    const byName = (await search('port', { sortableProp: 'name', order: 'ascending' })).hits;
    expect(byName.map((h) => h.name)).toEqual([
      'a-report.txt',
      'report-b.txt',
      'reports.txt',
      'zz report.txt',
    ]);
  });

  it('pages through many matches with a stable total', async () => {
    for (let i = 0; i < 25; i++) await putFile(t, owner(), '/', `photo-${i}.jpg`, `p${i}`);
    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const { hits, count } = await search('photo', { pageIndex: page, pageSize: 10 });
      expect(count).toBe(25);
      for (const h of hits) seen.add(h.id);
    }
    expect(seen.size).toBe(25);
  });
});

describe('content', () => {
  it('finds text inside files by one, two and three Chinese characters, with a snippet; names rank first', async () => {
    await putFile(
      t,
      owner(),
      '/',
      'notes.txt',
      '今天的会议讨论了季度预算。Budget review for the marketing team.\n下一步：提交报告。',
    );
    await putFile(t, owner(), '/', '预算.md', 'nothing relevant here');
    await putFile(t, owner(), '/', 'plain.log', 'a log line about deployments');
    await indexed(t, admin.userId);

    const one = await search('季');
    expect(one.hits.map((h) => h.name)).toEqual(['notes.txt']);
    expect(one.hits[0]!.matchedIn).toBe('content');
    expect(one.hits[0]!.snippet).toContain('季度预算');

    // the name match comes before the content match
    const two = await search('预算');
    expect(two.hits.map((h) => [h.name, h.matchedIn])).toEqual([
      ['预算.md', 'name'],
      ['notes.txt', 'content'],
    ]);
    expect((await search('季度预')).hits.map((h) => h.name)).toEqual(['notes.txt']);
    expect((await search('marketing')).hits.map((h) => h.name)).toEqual(['notes.txt']);
    expect((await search('deploy')).hits.map((h) => h.name)).toEqual(['plain.log']);

    // content can be left out, and names too
    expect((await search('预算', { includeFileContent: false })).hits.map((h) => h.name)).toEqual([
      '预算.md',
    ]);
    expect((await search('预算', { includeFileName: false })).hits.map((h) => h.name)).toEqual([
      'notes.txt',
    ]);
  });

  it('reads text saved as GB18030 (GBK)', async () => {
    // 中文编码测试 in GBK
    await putFile(t, owner(), '/', 'legacy.txt', Buffer.from('d6d0cec4b1e0c2ebb2e2cad4', 'hex'));
    await indexed(t, admin.userId);
    expect(await names('编码')).toEqual(['legacy.txt']);
  });

  it('finds the text of docx, xlsx, pptx, pdf and epub files', async () => {
    await putFile(
      t,
      owner(),
      '/',
      'letter.docx',
      await docx(['Dear customer', '感谢您的订单 alpha']),
    );
    await putFile(
      t,
      owner(),
      '/',
      'sheet.xlsx',
      await xlsx('销售数据', ['bravo revenue', '华东地区']),
    );
    await putFile(t, owner(), '/', 'deck.pptx', await pptx(['charlie roadmap', '产品发布会']));
    await putFile(
      t,
      owner(),
      '/',
      'book.epub',
      await epub('A Book', ['foxtrot chapter text', '第二章 海上冒险']),
    );
    await indexed(t, admin.userId);

    expect(await names('alpha')).toEqual(['letter.docx']);
    expect(await names('订单')).toEqual(['letter.docx']);
    expect(await names('bravo')).toEqual(['sheet.xlsx']);
    expect(await names('华东')).toEqual(['sheet.xlsx']);
    expect(await names('销售数据')).toEqual(['sheet.xlsx']);
    expect(await names('inline cell')).toEqual(['sheet.xlsx']);
    expect(await names('charlie')).toEqual(['deck.pptx']);
    expect(await names('发布会')).toEqual(['deck.pptx']);
    expect(await names('foxtrot')).toEqual(['book.epub']);
    expect(await names('海上')).toEqual(['book.epub']);
    // the head of an XHTML chapter is not text of the book
    expect(await names('ignored')).toEqual([]);
  });

  it.skipIf(skipWithout(hasProgram('pdftotext')))('reads the text of PDF pages', async () => {
    requireTool('pdftotext (poppler-utils)', hasProgram('pdftotext'));
    await putFile(
      t,
      owner(),
      '/',
      'paper.pdf',
      textPdf(['delta findings on page one', 'echo on page two']),
    );
    await indexed(t, admin.userId);
    expect(await names('delta')).toEqual(['paper.pdf']);
    expect(await names('echo')).toEqual(['paper.pdf']);
  });
});

describe('the index follows the tree', () => {
  it('follows rename, move, copy, delete, restore and permanent delete', async () => {
    const folder = await newFolder('档案');
    const id = await putFile(t, owner(), '/档案', '旧名字.txt', 'the hotel california lyrics');
    await indexed(t, admin.userId);
    expect(await names('旧名')).toEqual(['旧名字.txt']);

    // rename: the new name is found, the old one is not; the content still is
    let res = await call(t.app, 'GET', '/rename', {
      token: admin.token,
      query: { id, newFileName: '新标题.txt' },
    });
    expect(res.body.code).toBe(0);
    expect(await names('旧名')).toEqual([]);
    expect(await names('新标')).toEqual(['新标题.txt']);
    expect(await names('california')).toEqual(['新标题.txt']);

    // move: found in the new folder's scope, not the old one's
    const other = await newFolder('other');
    res = await call(t.app, 'GET', '/move', {
      token: admin.token,
      query: { froms: id, to: other },
    });
    expect(res.body.code).toBe(0);
    const inOther = await search('新标', { searchOverall: false, currentDirectory: '/other' });
    expect(inOther.hits.map((h) => h.path)).toEqual(['/other/']);
    expect((await search('新标', { searchOverall: false, currentDirectory: '/档案' })).count).toBe(
      0,
    );

    // copy: both are found, the copy's text too
    res = await call(t.app, 'GET', '/copy', {
      token: admin.token,
      query: { froms: id, to: folder },
    });
    expect(res.body.code).toBe(0);
    await indexed(t, admin.userId);
    expect((await search('california')).hits.map((h) => h.path).sort()).toEqual([
      '/other/',
      '/档案/',
    ]);

    // a folder renamed: what is inside keeps matching, under the new path
    res = await call(t.app, 'GET', '/rename', {
      token: admin.token,
      query: { id: other, newFileName: '其他' },
    });
    expect(res.body.code).toBe(0);
    expect((await search('新标', { searchOverall: false, currentDirectory: '/其他' })).count).toBe(
      1,
    );

    // delete: gone from results, name and content; restore brings both back
    res = await call(t.app, 'DELETE', '/delete', { token: admin.token, query: { fileIds: other } });
    expect(res.body.code).toBe(0);
    expect((await search('california')).hits.map((h) => h.path)).toEqual(['/档案/']);
    expect(await names('其他')).toEqual([]);
    res = await call(t.app, 'POST', '/restore', { token: admin.token, query: { fileIds: other } });
    expect(res.body.code).toBe(0);
    await indexed(t, admin.userId);
    expect((await search('california')).count).toBe(2);
    expect(await names('其他')).toEqual(['其他']);

    // permanent delete: the documents go with the rows
    res = await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: other, sweep: true },
    });
    expect(res.body.code).toBe(0);
    expect((await search('california')).count).toBe(1);
    const left = await t.database.db.selectFrom('searchDoc').select('name').execute();
    expect(left.map((d) => d.name).sort()).toEqual(['新标题.txt', '档案'].sort());
  });

  it('repairs an index that lost documents, and rebuilds names after a restart', async () => {
    await putFile(t, owner(), '/', 'survivor.txt', 'kilo lima');
    await indexed(t, admin.userId);
    await t.database.db.deleteFrom('searchDoc').execute();
    expect(await names('survivor')).toEqual([]);
    await t.app.services.searchIndex.repair();
    await indexed(t, admin.userId);
    expect(await names('survivor')).toEqual(['survivor.txt']);
    expect(await names('lima')).toEqual(['survivor.txt']);
    await t.restart();
    expect(await names('lima')).toEqual(['survivor.txt']);
  });
});

describe('privacy and options', () => {
  it("never returns another user's files", async () => {
    const bob = await makeUser(t.app, admin.token);
    await putFile(
      t,
      { userId: bob.userId, username: bob.username },
      '/',
      'secret plan 机密.txt',
      'the treasure is buried',
    );
    await putFile(t, owner(), '/', 'public plan.txt', 'nothing here');
    await indexed(t, bob.userId);
    await indexed(t, admin.userId);
    expect(await names('plan')).toEqual(['public plan.txt']);
    expect(await names('机密')).toEqual([]);
    // parts of names, one letter and two characters look in the caller's own tree only
    expect(await names('cret')).toEqual([]);
    expect(await names('密')).toEqual([]);
    expect(await names('lan')).toEqual(['public plan.txt']);
    expect(await names('t 机', { sortableProp: 'name' })).toEqual([]);
    expect(await names('treasure')).toEqual([]);
    // with filters and sorting (the other query path) too
    expect(await names('treasure', { sortableProp: 'name' })).toEqual([]);
    const bobs = await search('plan', { queryFileType: 'document' }, bob.token);
    expect(bobs.hits.map((h) => h.name)).toEqual(['secret plan 机密.txt']);
  });

  it('matches exactly or loosely', async () => {
    await putFile(t, owner(), '/', 'final report.txt', 'x');
    await putFile(t, owner(), '/', 'report final.txt', 'x');
    await putFile(t, owner(), '/', 'reporting.txt', 'x');
    await putFile(t, owner(), '/', '项目总结.txt', 'x');
    await putFile(t, owner(), '/', '目总结项目.txt', 'x');
    // loose: words in any order, by prefix; the pieces of Chinese words anywhere
    expect(await names('report final')).toEqual(['final report.txt', 'report final.txt']);
    expect(await names('report')).toEqual([
      'final report.txt',
      'report final.txt',
      'reporting.txt',
    ]);
    expect(await names('项目总结')).toEqual(['目总结项目.txt', '项目总结.txt']);
    // exact: whole words, in the order typed
    expect(await names('report final', { exactSearch: true })).toEqual(['report final.txt']);
    expect(await names('report', { exactSearch: true })).toEqual([
      'final report.txt',
      'report final.txt',
    ]);
    expect(await names('项目总结', { exactSearch: true })).toEqual(['项目总结.txt']);
  });

  it('filters by type, size, date and folder, and sorts', async () => {
    await newFolder('docs');
    await putFile(t, owner(), '/docs', 'alpha small.txt', 'a');
    await putFile(t, owner(), '/', 'alpha big.txt', 'a'.repeat(5000));
    await putFile(t, owner(), '/', 'alpha photo.png', 'not really a png');
    expect(await names('alpha', { queryFileType: 'image' })).toEqual(['alpha photo.png']);
    expect(await names('alpha', { querySizeMin: 1000 })).toEqual(['alpha big.txt']);
    expect(await names('alpha', { querySizeMax: 100 })).toEqual([
      'alpha photo.png',
      'alpha small.txt',
    ]);
    expect(await names('alpha', { searchOverall: false, currentDirectory: '/docs' })).toEqual([
      'alpha small.txt',
    ]);
    const future = Date.now() + 3600_000;
    expect(await names('alpha', { queryModifyStart: future })).toEqual([]);
    expect((await names('alpha', { queryModifyEnd: future })).length).toBe(3);
    const bySize = await search('alpha', { sortableProp: 'size', order: 'descending' });
    expect(bySize.hits.map((h) => h.name)).toEqual([
      'alpha big.txt',
      'alpha photo.png',
      'alpha small.txt',
    ]);
    // filters without a keyword list what passes them
    expect(await names('', { queryFileType: 'image' })).toEqual(['alpha photo.png']);
    expect((await search('')).count).toBe(0);
  });
});

describe('sorted search over many matches', () => {
  it('orders equal values by name, then id, whichever way the search is planned', async () => {
    // enough matches that a sorted search walks the files in order; a size filter that keeps
    // every file makes the same search join the matches instead: both answer the same
    const { files, db, searchIndex } = t.app.services;
    const other = await newFolder('other');
    const base = Date.now() - 86_400_000;
    const row = (name: string, i: number, parentId: string, path: string): NewFileRow => ({
      id: crypto.randomUUID(),
      userId: admin.userId,
      parentId,
      name,
      path,
      isFolder: 0,
      size: 1 + (i % 5),
      contentType: 'application/gzip',
      suffix: 'gz',
      fileType: 'archive',
      hash: null,
      uploadDate: base,
      updateDate: base + (i % 400),
      isFavorite: 0,
      media: null,
      childrenCount: 0,
      trashId: null,
      trashedAt: null,
    });
    const rows: NewFileRow[] = [];
    for (let i = 0; i < 4800; i++)
      rows.push(row(i % 3 ? `walk-${i}.gz` : `a-walk-${i}.gz`, i, '0', '/'));
    // the same names, sizes and dates in another folder: only the id tells them apart
    for (const i of [1, 2, 3]) rows.push(row(`walk-${i}.gz`, i, other, '/other/'));
    for (let i = 0; i < rows.length; i += 500)
      await db.transaction().execute((trx) => files.repo.insertMany(rows.slice(i, i + 500), trx));
    await searchIndex.indexMissing();

    const key = (r: NewFileRow, prop: 'size' | 'updateDate') => r[prop];
    for (const [prop, order] of [
      ['size', 'descending'],
      ['size', 'ascending'],
      ['updateDate', 'descending'],
      ['updateDate', 'ascending'],
    ] as const) {
      const sign = order === 'descending' ? -1 : 1;
      const expected = [...rows].sort(
        (a, b) =>
          Number(!a.name.startsWith('walk')) - Number(!b.name.startsWith('walk')) ||
          sign * (key(a, prop) - key(b, prop)) ||
          (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
      for (const pageIndex of [1, 2, 64, 65]) {
        const query = { sortableProp: prop, order, pageIndex, pageSize: 50 };
        const walked = await search('walk', query);
        const joined = await search('walk', { ...query, querySizeMin: 0 });
        const want = expected.slice((pageIndex - 1) * 50, pageIndex * 50).map((r) => r.id);
        expect(walked.hits.map((h) => h.id)).toEqual(want);
        expect(joined.hits.map((h) => h.id)).toEqual(want);
        expect(walked.count).toBe(rows.length);
        expect(joined.count).toBe(rows.length);
      }
    }
    // 32 sorted searches over 4,800 matches: about a minute on PostgreSQL on two cores
  }, 180_000);
});

describe('search history', () => {
  it('remembers searches, newest first, and forgets one or all', async () => {
    for (const k of ['预算', 'budget', '报告', 'budget']) await search(k);
    // results shown while typing are not remembered
    await search('bud', { quick: true });
    const recent = await call<Array<{ id: string; keyword: string }>>(
      t.app,
      'GET',
      '/search/recentlySearchHistory',
      {
        token: admin.token,
      },
    );
    expect(recent.body.data!.map((h) => h.keyword)).toEqual(['budget', '报告', '预算']);
    const filtered = await call<Array<{ id: string; keyword: string }>>(
      t.app,
      'GET',
      '/search/recentlySearchHistory',
      {
        token: admin.token,
        query: { keyword: 'BUD' },
      },
    );
    expect(filtered.body.data!.map((h) => h.keyword)).toEqual(['budget']);

    const bob = await makeUser(t.app, admin.token);
    const bobs = await call<unknown[]>(t.app, 'GET', '/search/recentlySearchHistory', {
      token: bob.token,
    });
    expect(bobs.body.data).toEqual([]);
    // someone else's entry cannot be deleted
    await call(t.app, 'DELETE', '/search/deleteSearchHistory', {
      token: bob.token,
      query: { id: recent.body.data![0]!.id },
    });
    await call(t.app, 'DELETE', '/search/deleteSearchHistory', {
      token: admin.token,
      query: { id: recent.body.data![1]!.id },
    });
    const after = await call<Array<{ keyword: string }>>(
      t.app,
      'GET',
      '/search/recentlySearchHistory',
      {
        token: admin.token,
      },
    );
    expect(after.body.data!.map((h) => h.keyword)).toEqual(['budget', '预算']);
    await call(t.app, 'DELETE', '/search/deleteAllSearchHistory', { token: admin.token });
    const none = await call<unknown[]>(t.app, 'GET', '/search/recentlySearchHistory', {
      token: admin.token,
    });
    expect(none.body.data).toEqual([]);
  });
});
