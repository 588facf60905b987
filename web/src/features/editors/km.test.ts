import { describe, expect, it } from 'vitest';
import {
  drawnTree,
  isSafeLink,
  kmOf,
  kmText,
  parseKm,
  templateOf,
  themeOf,
  type DrawnNode,
} from './km';

const fromKityMinder = JSON.stringify({
  root: {
    data: { id: 'c1', created: 1700000000000, text: 'Plan', priority: 1 },
    children: [
      {
        data: { id: 'c2', created: 1700000000001, text: 'Travel', expandState: 'collapse' },
        children: [{ data: { id: 'c3', created: 1700000000002, text: 'Tickets' }, children: [] }],
      },
      { data: { id: 'c4', created: 1700000000003, text: 'Budget', note: 'ask' }, children: [] },
    ],
  },
  template: 'right',
  theme: 'snow-compact',
  version: '1.4.43',
});

describe('.km documents', () => {
  it('come back unchanged when nothing was edited', () => {
    const doc = parseKm(fromKityMinder, 'x');
    const again = kmOf(doc, drawnTree(doc), templateOf(doc.template), themeOf(doc.theme));
    expect(JSON.stringify(again)).toBe(fromKityMinder);
    expect(kmText(again, fromKityMinder, doc)).toBe(fromKityMinder);
  });

  it('keep unknown fields and the folded state through an edit', () => {
    const doc = parseKm(fromKityMinder, 'x');
    const drawn = drawnTree(doc);
    expect(drawn.children[0]!.data.expand).toBe(false);
    const added: DrawnNode = { data: { text: 'Hotel', uid: 'n9', expand: true }, children: [] };
    drawn.children[0]!.children.push(added);
    drawn.children[1]!.data.text = 'Money';
    const saved = kmOf(doc, drawn, 'fish-bone', 'wire');
    expect(saved).toMatchObject({ template: 'fish-bone', theme: 'wire', version: '1.4.43' });
    expect(saved.root.data).toEqual({
      id: 'c1',
      created: 1700000000000,
      text: 'Plan',
      priority: 1,
    });
    expect(saved.root.children![0]!.data.expandState).toBe('collapse');
    expect(saved.root.children![0]!.children![1]).toEqual({ data: { id: 'n9', text: 'Hotel' } });
    expect(saved.root.children![1]!.data).toEqual({
      id: 'c4',
      created: 1700000000003,
      text: 'Money',
      note: 'ask',
    });
  });

  it('start a new map from an empty or foreign file', () => {
    for (const text of ['', 'not json', '{"a":1}']) {
      const doc = parseKm(text, 'Ideas');
      expect(doc.root.data.text).toBe('Ideas');
      expect(templateOf(doc.template)).toBe('default');
      expect(themeOf(doc.theme)).toBe('fresh-blue');
    }
  });
});

describe('links on topics', () => {
  it('open only web and mail addresses', () => {
    expect(isSafeLink('https://example.org/a')).toBe(true);
    expect(isSafeLink('HTTP://example.org')).toBe(true);
    expect(isSafeLink('mailto:ann@example.org')).toBe(true);
    expect(isSafeLink('javascript:alert(1)')).toBe(false);
    expect(isSafeLink(' data:text/html,<b>x</b>')).toBe(false);
    expect(isSafeLink('https://')).toBe(false);
  });

  it('draw a title as text, and keep it in the file as it was', () => {
    const title = '<img src=x onerror="alert(1)"> & \'more\'';
    const text = JSON.stringify({
      root: { data: { id: 'r', text: 'R', hyperlink: 'https://a.example', hyperlinkTitle: title } },
    });
    const doc = parseKm(text, 'x');
    const drawn = drawnTree(doc);
    expect(drawn.data.hyperlinkTitle).toBe(
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;more&#39;',
    );
    const again = kmOf(doc, drawn, 'default', 'fresh-blue');
    expect(again.root.data.hyperlinkTitle).toBe(title);
    expect(kmText(again, text, doc)).toContain('hyperlinkTitle');
  });
});
