import type { ReactNode } from 'react';

/** [start, end) ranges of every occurrence of any word, case-insensitively, merged. */
export function matchRanges(text: string, words: readonly string[]): Array<[number, number]> {
  const lower = text.toLowerCase();
  const ranges: Array<[number, number]> = [];
  for (const word of words) {
    const needle = word.trim().toLowerCase();
    if (!needle) continue;
    let at = lower.indexOf(needle);
    while (at >= 0) {
      ranges.push([at, at + needle.length]);
      at = lower.indexOf(needle, at + needle.length);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/**
 * Text with the matched words marked, as React nodes (never HTML): whatever the text holds is
 * shown as text.
 */
export function highlight(text: string, words: readonly string[]): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of matchRanges(text, words)) {
    if (start > at) out.push(text.slice(at, start));
    out.push(
      <mark key={start} className="nb-hit">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
