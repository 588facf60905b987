import type { TextSink } from './text.ts';

export interface XmlTextOptions {
  /** Text is kept only inside these elements; every text node when absent. */
  textIn?: ReadonlySet<string>;
  /** Text inside these elements is dropped (scripts, styles). */
  skipIn?: ReadonlySet<string>;
  /** A line break after these elements (paragraphs, rows) and at these empty elements. */
  lineAfter?: ReadonlySet<string>;
  /** A tab (or space) at these elements (cells, tabs). */
  spaceAt?: ReadonlySet<string>;
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X'
          ? parseInt(body.slice(2), 16)
          : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : '';
    }
    return NAMED[body] ?? whole;
  });
}

/**
 * The text of an XML (or XHTML) document fed in pieces, so a large part of an office file is
 * read as a stream and never held whole. Not a validating parser: it follows tags and text.
 */
export class XmlTextExtractor {
  private buffer = '';
  private keepDepth = 0;
  private skipDepth = 0;

  constructor(
    private readonly sink: TextSink,
    private readonly options: XmlTextOptions = {},
  ) {}

  get full(): boolean {
    return this.sink.full;
  }

  write(chunk: string): void {
    this.buffer += chunk;
    this.drain(false);
  }

  end(): void {
    this.drain(true);
  }

  private emitText(raw: string): void {
    if (this.skipDepth > 0) return;
    if (this.options.textIn && this.keepDepth === 0) return;
    const text = decodeEntities(raw);
    if (text) this.sink.push(text);
  }

  private drain(final: boolean): void {
    let at = 0;
    const buf = this.buffer;
    while (at < buf.length && !this.sink.full) {
      const lt = buf.indexOf('<', at);
      if (lt < 0) {
        // keep a possibly cut entity for the next piece
        const amp = buf.lastIndexOf('&');
        const end = !final && amp >= at && buf.length - amp < 12 ? amp : buf.length;
        if (end > at) this.emitText(buf.slice(at, end));
        at = end;
        break;
      }
      if (lt > at) this.emitText(buf.slice(at, lt));
      at = lt;
      let close: number;
      if (buf.startsWith('<!--', at)) {
        close = buf.indexOf('-->', at + 4);
        if (close < 0) break;
        at = close + 3;
        continue;
      }
      if (buf.startsWith('<![CDATA[', at)) {
        close = buf.indexOf(']]>', at + 9);
        if (close < 0) break;
        if (this.skipDepth === 0 && (!this.options.textIn || this.keepDepth > 0))
          this.sink.push(buf.slice(at + 9, close));
        at = close + 3;
        continue;
      }
      close = buf.indexOf('>', at + 1);
      if (close < 0) break;
      this.tag(buf.slice(at + 1, close));
      at = close + 1;
    }
    this.buffer = buf.slice(at);
    if (this.sink.full) this.buffer = '';
  }

  private tag(inner: string): void {
    if (inner.startsWith('?') || inner.startsWith('!')) return;
    const closing = inner.startsWith('/');
    const selfClosing = inner.endsWith('/');
    const name = /^\/?\s*([^\s/>]+)/.exec(inner)?.[1]?.toLowerCase() ?? '';
    const { textIn, skipIn, lineAfter, spaceAt } = this.options;
    if (closing) {
      if (textIn?.has(name)) this.keepDepth = Math.max(0, this.keepDepth - 1);
      if (skipIn?.has(name)) this.skipDepth = Math.max(0, this.skipDepth - 1);
      if (lineAfter?.has(name)) this.sink.push('\n');
      return;
    }
    if (spaceAt?.has(name)) this.sink.push('\t');
    // `<br>` of HTML has no end tag
    if (selfClosing || name === 'br') {
      if (lineAfter?.has(name)) this.sink.push('\n');
      return;
    }
    if (textIn?.has(name)) this.keepDepth += 1;
    if (skipIn?.has(name)) this.skipDepth += 1;
  }
}
