import { SaxesParser } from 'saxes';
import { DavError } from './webdav-errors.ts';

export const DAV_NS = 'DAV:';

/** An element of a request body, its namespace resolved. */
export interface XmlElement {
  ns: string;
  local: string;
  attrs: { ns: string; local: string; value: string }[];
  children: (XmlElement | string)[];
}

/** A request body can hold no more than this many elements (a property update of many). */
const MAX_ELEMENTS = 10_000;

/** A request body (PROPFIND, PROPPATCH, LOCK) as a tree; not well-formed XML is a 400. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let count = 0;
  parser.on('opentag', (tag) => {
    if (++count > MAX_ELEMENTS) throw new DavError(413, 'Too many elements');
    const element: XmlElement = {
      ns: tag.uri,
      local: tag.local,
      attrs: Object.values(tag.attributes)
        .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
        .map((a) => ({ ns: a.uri, local: a.local, value: a.value })),
      children: [],
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (t: string) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(t);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('error', (err) => {
    throw new DavError(400, `The XML body is not well-formed: ${err.message}`);
  });
  parser.write(text).close();
  if (!root) throw new DavError(400, 'The XML body is empty');
  return root;
}

/** The child elements of an element (text left out). */
export function elements(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string');
}

export function isDav(el: XmlElement, local: string): boolean {
  return el.ns === DAV_NS && el.local === local;
}

export function firstDav(el: XmlElement, local: string): XmlElement | undefined {
  return elements(el).find((c) => isDav(c, local));
}

/** A property's key: `{namespace}name`. */
export const propKey = (ns: string, local: string) => `{${ns}}${local}`;

export function escapeXml(text: string): string {
  if (!/[&<>"]/.test(text)) return text;
  return text.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
}

/**
 * An element written back as XML that stands on its own: every element declares its namespace
 * as the default one (the null namespace too), attributes in a namespace get a prefix declared
 * beside them. A dead property is kept this way and sent as kept.
 */
export function serializeElement(el: XmlElement): string {
  let attrs = ` xmlns="${escapeXml(el.ns)}"`;
  el.attrs.forEach((a, i) => {
    if (a.ns) attrs += ` xmlns:a${i}="${escapeXml(a.ns)}" a${i}:${a.local}="${escapeXml(a.value)}"`;
    else attrs += ` ${a.local}="${escapeXml(a.value)}"`;
  });
  if (el.children.length === 0) return `<${el.local}${attrs}/>`;
  const inner = el.children
    .map((c) => (typeof c === 'string' ? escapeXml(c) : serializeElement(c)))
    .join('');
  return `<${el.local}${attrs}>${inner}</${el.local}>`;
}

/** An empty element of a property's name (PROPFIND propname, not-found properties). */
export function emptyElement(key: string): string {
  const { ns, local } = splitKey(key);
  return ns === DAV_NS ? `<D:${local}/>` : `<${local} xmlns="${escapeXml(ns)}"/>`;
}

export function splitKey(key: string): { ns: string; local: string } {
  const end = key.indexOf('}');
  return { ns: key.slice(1, end), local: key.slice(end + 1) };
}

/** The text of an element and its descendants. */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';
