import { describe, expect, it } from 'vitest';
import { highlightLines, languageOf } from './highlight';

describe('highlighting', () => {
  it('knows languages by suffix and by name', () => {
    expect(languageOf('a.tsx', 'tsx')).toBe('typescript');
    expect(languageOf('Dockerfile', '')).toBe('dockerfile');
    expect(languageOf('notes.txt', 'txt')).toBeNull();
  });

  it('gives one line of HTML per line, spans closed and reopened across lines, text escaped', async () => {
    const lines = await highlightLines('/* one\ntwo */\nconst a = "<b>";', 'javascript');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('<span class="hljs-comment">/* one</span>');
    expect(lines[1]).toBe('<span class="hljs-comment">two */</span>');
    expect(lines[2]).toContain('&lt;b&gt;');
    expect(lines[2]).not.toContain('<b>');
  });
});
