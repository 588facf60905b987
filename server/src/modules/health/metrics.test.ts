import { describe, expect, it } from 'vitest';
import { escapeLabel } from './metrics.ts';

describe('escapeLabel', () => {
  it('escapes backslash, double quote and newline as the text format wants', () => {
    expect(escapeLabel('plain/:id')).toBe('plain/:id');
    expect(escapeLabel('a\\b')).toBe('a\\\\b');
    expect(escapeLabel('say "hi"')).toBe('say \\"hi\\"');
    expect(escapeLabel('two\nlines')).toBe('two\\nlines');
    expect(escapeLabel('\\"\n')).toBe('\\\\\\"\\n');
  });
});
