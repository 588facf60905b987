import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MutableRefObject,
} from 'react';
import { highlightLines } from '../../../lib/highlight';
import type { EditorSurface } from '../use-document-editor';
import { Minimap } from './Minimap';

/** Texts up to this many characters are coloured as they are typed. */
const HIGHLIGHT_MAX_CHARS = 512 * 1024;
export const CODE_LINE_HEIGHT = 20;
/** The padding above the first line (px), the same for every layer. */
const PAD_TOP = 8;

/** The unit one Tab indents by: what the text uses already, else two or four spaces. */
function indentUnitOf(text: string, language: string | null): string {
  const indented = /^([ \t]+)\S/m.exec(text);
  if (indented?.[1]?.startsWith('\t')) return '\t';
  if (indented?.[1] && indented[1].length % 4 !== 0) return '  ';
  return language === 'python' || language === 'java' || language === 'csharp' ? '    ' : '  ';
}

/** Type `text` at the selection as a keystroke would: the browser's undo keeps it. */
function typeText(area: HTMLTextAreaElement, text: string): void {
  if (document.execCommand('insertText', false, text)) return;
  area.setRangeText(text, area.selectionStart, area.selectionEnd, 'end');
  area.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * A text being edited, as code editors show it: line numbers, the colours of its language
 * (highlight.js, drawn under a transparent textarea that takes the typing, so the browser's
 * caret, selection, undo, spell-check-free input and IME all work), the caret's line marked,
 * Tab and Shift+Tab indenting the lines, Enter keeping the indentation, and a minimap.
 */
export function CodeArea({
  initial,
  language,
  readOnly,
  minimap,
  label,
  surfaceRef,
  onChange,
}: {
  initial: string;
  /** highlight.js's language, or null for plain text. */
  language: string | null;
  readOnly: boolean;
  minimap: boolean;
  label: string;
  /** Where the document editor finds the text (getValue, setValue, setReadOnly). */
  surfaceRef: MutableRefObject<EditorSurface | null>;
  onChange: (text: string) => void;
}) {
  const [text, setText] = useState(initial);
  const current = useRef(initial);
  const [locked, setLocked] = useState(false);
  const [caretLine, setCaretLine] = useState(0);
  const [marked, setMarked] = useState<{ text: string; html: string } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);

  const change = useCallback(
    (next: string) => {
      current.current = next;
      setText(next);
      onChange(next);
    },
    [onChange],
  );

  useEffect(() => {
    surfaceRef.current = {
      getValue: () => current.current,
      setValue: change,
      setReadOnly: setLocked,
    };
    return () => {
      surfaceRef.current = null;
    };
  }, [surfaceRef, change]);

  // the colours follow the text; until they arrive the plain text shows (never stale colours)
  useEffect(() => {
    if (!language || text.length > HIGHLIGHT_MAX_CHARS) return;
    let live = true;
    highlightLines(text, language).then(
      (lines) => live && setMarked({ text, html: lines.join('\n') }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [text, language]);

  const lineCount = useMemo(() => {
    let count = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
    return count;
  }, [text]);
  const numbers = useMemo(
    () => Array.from({ length: lineCount }, (_, i) => i + 1).join('\n'),
    [lineCount],
  );

  const trackCaret = () => {
    const element = area.current;
    if (!element) return;
    const before = element.value.slice(0, element.selectionStart);
    let line = 0;
    for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++;
    setCaretLine(line);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const element = event.currentTarget;
    if (element.readOnly || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.nativeEvent.isComposing) return;
    const { value, selectionStart: start, selectionEnd: end } = element;
    const lineStart = value.lastIndexOf('\n', start - 1) + 1;
    if (event.key === 'Enter') {
      event.preventDefault();
      const indent = /^[ \t]*/.exec(value.slice(lineStart, start))?.[0] ?? '';
      typeText(element, `\n${indent}`);
      return;
    }
    if (event.key !== 'Tab') return;
    event.preventDefault();
    const unit = indentUnitOf(value, language);
    const multiLine = value.slice(start, end).includes('\n');
    if (!event.shiftKey && !multiLine) {
      typeText(element, unit);
      return;
    }
    // the selected lines, whole, indented or outdented by one unit
    const blockEnd = value.indexOf('\n', end - (end > start && value[end - 1] === '\n' ? 1 : 0));
    const stop = blockEnd === -1 ? value.length : blockEnd;
    const lines = value.slice(lineStart, stop).split('\n');
    const changed = lines.map((line) => {
      if (!event.shiftKey) return line ? unit + line : line;
      if (line.startsWith('\t')) return line.slice(1);
      return line.replace(new RegExp(`^ {1,${unit === '\t' ? 4 : unit.length}}`), '');
    });
    element.setSelectionRange(lineStart, stop);
    typeText(element, changed.join('\n'));
    element.setSelectionRange(lineStart, lineStart + changed.join('\n').length);
  };

  const isReadOnly = readOnly || locked;
  const html = marked?.text === text ? marked.html : null;
  return (
    <div className="nb-codearea nb-code" data-testid="text-editor-area">
      <div ref={scroller} className="nb-codearea__scroller">
        {/* one cell holds every layer: the textarea starts at the left edge, so focusing it
            never scrolls the text under the line numbers */}
        <div
          className="nb-codearea__content"
          style={{
            ['--nb-gutter' as string]: `calc(${Math.max(2, String(lineCount).length)}ch + 22px)`,
          }}
        >
          <div
            className="nb-codearea__caret-line"
            style={{ top: PAD_TOP + caretLine * CODE_LINE_HEIGHT }}
          />
          {html !== null ? (
            <pre
              className="nb-codearea__colours hljs"
              aria-hidden="true"
              data-highlighted="true"
              // highlight.js escapes the text; only its own spans are markup
              dangerouslySetInnerHTML={{ __html: `${html} ` }}
            />
          ) : (
            <pre className="nb-codearea__colours" aria-hidden="true">
              {`${text} `}
            </pre>
          )}
          <textarea
            ref={area}
            className="nb-codearea__input"
            value={text}
            rows={1}
            cols={1}
            wrap="off"
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            autoCorrect="off"
            readOnly={isReadOnly}
            aria-label={label}
            aria-readonly={isReadOnly}
            data-testid="text-editor-input"
            onChange={(event) => {
              change(event.target.value);
              trackCaret();
            }}
            onKeyDown={onKeyDown}
            onKeyUp={trackCaret}
            onClick={trackCaret}
            onSelect={trackCaret}
          />
          <pre className="nb-codearea__gutter" aria-hidden="true">
            {numbers}
          </pre>
        </div>
      </div>
      {minimap ? (
        <Minimap
          text={text}
          scrollerRef={scroller}
          lineHeight={CODE_LINE_HEIGHT}
          padTop={PAD_TOP}
          lineCount={lineCount}
        />
      ) : null}
    </div>
  );
}
