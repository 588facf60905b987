// Mind maps are stored in the KityMinder `.km` shape (root: {data: {id, text, …}, children},
// template, theme); the editor draws another tree shape (data: {uid, text, expand, …}). These
// pure functions turn one into the other and back, keeping every field they do not know, so a
// `.km` file from another tool that is opened and saved keeps what it had.

/** A node as a `.km` file holds it. */
export interface KmNode {
  data: { id?: string; text?: string; expandState?: string; [key: string]: unknown };
  children?: KmNode[];
}

/** A whole `.km` document. */
export interface KmDocument {
  root: KmNode;
  template?: string;
  theme?: string;
  [key: string]: unknown;
}

/** A node as the editor draws it. */
export interface DrawnNode {
  data: { text: string; uid?: string; expand?: boolean; [key: string]: unknown };
  children: DrawnNode[];
}

/** The six layouts of a `.km` file (its `template`), the first the default. */
export const KM_TEMPLATES = [
  'default',
  'structure',
  'filetree',
  'right',
  'fish-bone',
  'tianpan',
] as const;
export type KmTemplate = (typeof KM_TEMPLATES)[number];

/** The nine themes of a `.km` file, the first the default. */
export const KM_THEMES = [
  'fresh-blue',
  'wire',
  'fish',
  'classic',
  'classic-compact',
  'snow',
  'snow-compact',
  'tianpan',
  'tianpan-compact',
] as const;
export type KmTheme = (typeof KM_THEMES)[number];

/** The editor's layout for each `.km` template. */
export const LAYOUT_OF: Record<KmTemplate, string> = {
  default: 'mindMap',
  structure: 'organizationStructure',
  filetree: 'catalogOrganization',
  right: 'logicalStructure',
  'fish-bone': 'fishbone',
  tianpan: 'timeline',
};

export const templateOf = (value: unknown): KmTemplate =>
  KM_TEMPLATES.includes(value as KmTemplate) ? (value as KmTemplate) : 'default';

export const themeOf = (value: unknown): KmTheme =>
  KM_THEMES.includes(value as KmTheme) ? (value as KmTheme) : 'fresh-blue';

/** A link a topic may hold and open: a web or mail address (never `javascript:` and kin). */
export function isSafeLink(link: string): boolean {
  return /^(https?:\/\/|mailto:)\S/i.test(link.trim());
}

/**
 * The widget writes a link's title into the drawing as markup: it gets the title with `<`, `&`
 * and quotes as entities, and the file keeps the title as it was.
 */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
const unescapeMarkup = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) =>
    Object.keys(ENTITIES).find((c) => ENTITIES[c] === entity)!,
  );

/** Fields the editor adds to a node that a `.km` file does not hold. */
const DRAWN_ONLY = new Set(['uid', 'expand', 'isActive', 'richText', 'resetRichText']);

function toDrawn(node: KmNode): DrawnNode {
  const { id, text, expandState, ...rest } = node.data;
  if (typeof rest.hyperlinkTitle === 'string')
    rest.hyperlinkTitle = escapeMarkup(rest.hyperlinkTitle);
  return {
    data: {
      ...rest,
      text: typeof text === 'string' ? text : '',
      ...(id !== undefined ? { uid: id } : {}),
      expand: expandState !== 'collapse',
    },
    children: (node.children ?? []).map(toDrawn),
  };
}

function toKm(node: DrawnNode, before: Map<string, KmNode>): KmNode {
  const { uid, expand, text, ...rest } = node.data;
  if (typeof rest.hyperlinkTitle === 'string')
    rest.hyperlinkTitle = unescapeMarkup(rest.hyperlinkTitle);
  const data: KmNode['data'] = {};
  const old = uid ? before.get(uid) : undefined;
  // the fields in the order the node had them, then the new ones
  for (const key of Object.keys(old?.data ?? {})) {
    if (key === 'id') data.id = uid;
    else if (key === 'text') data.text = text;
    else if (key === 'expandState') {
      if (expand === false) data.expandState = 'collapse';
      else if (old!.data.expandState !== 'collapse') data.expandState = old!.data.expandState;
    } else if (key in rest) data[key] = rest[key];
  }
  if (!('id' in data) && uid) data.id = uid;
  if (!('text' in data)) data.text = text;
  for (const [key, value] of Object.entries(rest))
    if (!(key in data) && !DRAWN_ONLY.has(key) && value !== undefined) data[key] = value;
  if (expand === false) data.expandState = 'collapse';
  const result: KmNode = { data };
  const children = node.children.map((child) => toKm(child, before));
  if (children.length > 0 || old?.children) result.children = children;
  return result;
}

function indexById(node: KmNode, into = new Map<string, KmNode>()): Map<string, KmNode> {
  if (node.data.id) into.set(node.data.id, node);
  for (const child of node.children ?? []) indexById(child, into);
  return into;
}

/** A `.km` file's text as a document; an empty or foreign file becomes a map of one topic. */
export function parseKm(text: string, title: string): KmDocument {
  try {
    const parsed = JSON.parse(text) as Partial<KmDocument>;
    if (parsed && typeof parsed === 'object' && parsed.root && typeof parsed.root === 'object') {
      const root = parsed.root;
      if (!root.data || typeof root.data !== 'object') root.data = { text: title };
      return parsed as KmDocument;
    }
  } catch {
    // not JSON: a new map
  }
  return {
    root: { data: { text: title }, children: [] },
    template: 'default',
    theme: 'fresh-blue',
  };
}

/** The tree the editor draws of a document. */
export const drawnTree = (doc: KmDocument): DrawnNode => toDrawn(doc.root);

/**
 * The document after editing: the drawn tree back in the `.km` shape, with the template and
 * theme chosen, every other field of the file as it was.
 */
export function kmOf(
  before: KmDocument,
  drawn: DrawnNode,
  template: KmTemplate,
  theme: KmTheme,
): KmDocument {
  return { ...before, root: toKm(drawn, indexById(before.root)), template, theme };
}

/** The text a document is saved as: unchanged text stays byte for byte what it was. */
export function kmText(doc: KmDocument, original: string, originalDoc: KmDocument): string {
  return JSON.stringify(doc) === JSON.stringify(originalDoc) ? original : JSON.stringify(doc);
}
