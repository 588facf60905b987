import { previewApi, shareVisitorApi } from '@nimbus/contract';
import { useEffect, useState } from 'react';
import { sourceAddress } from '../../actions/preview-sources';
import type { PreviewItem, PreviewSource } from '../../actions/viewers';

/** The viewer reads at most this much of a text; the rest is a download away. */
export const TEXT_VIEW_MAX_BYTES = 32 * 1024 * 1024;

export interface TextStream {
  /** The lines read so far (grows in place while the text arrives; `count` says how many). */
  lines: readonly string[];
  count: number;
  /** Every byte that will be read has arrived. */
  done: boolean;
  /** The file goes on past what was read (TEXT_VIEW_MAX_BYTES). */
  truncated: boolean;
  /** The charset the server read the file in, `UTF-8`, `GB18030`… */
  decoder: string | null;
  /** The bytes are no text (a NUL in the first chunk). */
  binary: boolean;
  failed: boolean;
}

/** A file's whole text, the owner's or a share visitor's. */
const textStreamTwins = {
  owner: previewApi.textStream,
  visitor: shareVisitorApi.previewTextStream,
};

const START: TextStream = {
  lines: [],
  count: 0,
  done: false,
  truncated: false,
  decoder: null,
  binary: false,
  failed: false,
};

/**
 * A file's text as it streams in, converted to UTF-8 by the server (`previewApi.textStream`),
 * split into lines: the first screen shows as soon as its bytes arrive, a big file keeps
 * filling in below.
 */
export function useTextStream(source: PreviewSource, item: PreviewItem): TextStream {
  const key = `${item.id}:${item.updateDate}`;
  const [state, setState] = useState<TextStream & { key: string }>({ ...START, key: '' });

  useEffect(() => {
    const abort = new AbortController();
    const found: string[] = [];
    const publish = (patch: Partial<TextStream> = {}) =>
      setState((s) => ({ ...s, key, lines: found, count: found.length, ...patch }));
    // chunks already received resolve one after another without leaving a gap for the page to
    // draw: after each update the loop yields, so the first screen shows while the rest arrives
    const yieldToPage = () => new Promise((resolve) => window.setTimeout(resolve, 0));
    let shownAt = 0;

    void (async () => {
      const response = await fetch(sourceAddress(source, textStreamTwins, { id: item.id }), {
        headers: source.headers(),
        credentials: 'same-origin',
        signal: abort.signal,
      });
      if (!response.ok || !response.body) {
        publish({ failed: true, done: true });
        return;
      }
      const decoder = response.headers.get('x-text-decoder');
      setState({ ...START, key, lines: found, decoder });
      const reader = response.body.getReader();
      const text = new TextDecoder('utf-8');
      let partial = '';
      let read = 0;
      let first = true;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (first && value.includes(0)) {
          await reader.cancel();
          publish({ binary: true, done: true });
          return;
        }
        first = false;
        read += value.length;
        const chunk = partial + text.decode(value, { stream: true });
        const parts = chunk.split('\n');
        partial = parts.pop() ?? '';
        for (const part of parts) found.push(part.endsWith('\r') ? part.slice(0, -1) : part);
        if (read >= TEXT_VIEW_MAX_BYTES) {
          await reader.cancel();
          if (partial) found.push(partial);
          publish({ truncated: true, done: true });
          return;
        }
        const now = performance.now();
        if (now - shownAt > 100) {
          shownAt = now;
          publish();
          await yieldToPage();
        }
      }
      partial += text.decode();
      // a last line without its newline; a file ending in one shows no empty line after it
      if (partial || found.length === 0) found.push(partial);
      publish({ done: true });
    })().catch(() => {
      if (!abort.signal.aborted) publish({ failed: true, done: true });
    });
    return () => abort.abort();
  }, [source, item.id, key]);
  // another file's text is not shown while this one's starts
  return state.key === key ? state : START;
}
