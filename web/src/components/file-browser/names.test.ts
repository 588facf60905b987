import { describe, expect, it } from 'vitest';
import { baseNameEnd, freeName, nameProblem } from './names';

describe('names (the server rules)', () => {
  it('accepts ordinary names, Chinese, emoji and 255 bytes', () => {
    expect(nameProblem('report.pdf')).toBeNull();
    expect(nameProblem('文档 📁')).toBeNull();
    expect(nameProblem('x'.repeat(255))).toBeNull();
  });

  it('refuses what the server refuses', () => {
    expect(nameProblem('')).toBe('empty');
    expect(nameProblem('   ')).toBe('empty');
    expect(nameProblem('.')).toBe('dots');
    expect(nameProblem('..')).toBe('dots');
    expect(nameProblem('a/b')).toBe('slash');
    expect(nameProblem('a\\b')).toBe('slash');
    expect(nameProblem('tab\tname')).toBe('control');
    expect(nameProblem('nul\u0000')).toBe('control');
    expect(nameProblem('x'.repeat(256))).toBe('tooLong');
    // 86 CJK characters are 258 bytes
    expect(nameProblem('字'.repeat(86))).toBe('tooLong');
  });

  it('selects the base name for a rename', () => {
    expect(baseNameEnd('report.final.pdf', false)).toBe(12);
    expect(baseNameEnd('.env', false)).toBe(4);
    expect(baseNameEnd('my.folder', true)).toBe(9);
  });

  it('finds a free name', () => {
    expect(freeName('Untitled.txt', new Set())).toBe('Untitled.txt');
    expect(freeName('Untitled.txt', new Set(['Untitled.txt', 'Untitled (2).txt']))).toBe(
      'Untitled (3).txt',
    );
    expect(freeName('New folder', new Set(['New folder']))).toBe('New folder (2)');
  });
});
