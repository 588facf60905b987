import JSON5 from 'json5';

/** One rule of the Preview Config: suffixes, and the viewer's address with `$e_url`. */
export interface IframeRule {
  suffixes: string[];
  name: string;
  /** `/pdf.js/web/viewer.html?file=$e_url`: `$e_url` is the encoded absolute bytes address. */
  template: string;
}

/** A viewer is framed from a path of this site or an http(s) address, never a script address. */
const SAFE_TEMPLATE = /^(\/(?!\/)|https?:\/\/)/i;

/** The built-in viewers, when the drive's Preview Config is missing or unreadable (API-NOTES §1.12). */
export const DEFAULT_IFRAME_RULES: readonly IframeRule[] = [
  { suffixes: ['pdf'], name: 'PDF viewer', template: '/pdf.js/web/viewer.html?file=$e_url' },
  { suffixes: ['epub'], name: 'EPUB viewer', template: '/resource/epubjs/viewer.html?url=$e_url' },
];

/**
 * The Preview Config (`{"pdf,ofd": {"PDF viewer": "/pdf.js/web/viewer.html?file=$e_url"}}`) as
 * rules: each key a comma-separated suffix list, each value the viewers' names and addresses
 * (the first is the one a click opens).
 */
export function parseIframeRules(config: string | undefined): readonly IframeRule[] {
  if (!config?.trim()) return DEFAULT_IFRAME_RULES;
  let parsed: unknown;
  try {
    parsed = JSON5.parse(config);
  } catch {
    return DEFAULT_IFRAME_RULES;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return DEFAULT_IFRAME_RULES;
  const rules: IframeRule[] = [];
  for (const [keys, viewers] of Object.entries(parsed)) {
    if (!viewers || typeof viewers !== 'object') continue;
    const first = Object.entries(viewers as Record<string, unknown>).find(
      ([, template]) => typeof template === 'string' && SAFE_TEMPLATE.test(template.trim()),
    );
    if (!first) continue;
    const suffixes = keys
      .split(',')
      .map((s) => s.trim().replace(/^\./, '').toLowerCase())
      .filter(Boolean);
    if (suffixes.length)
      rules.push({ suffixes, name: first[0], template: (first[1] as string).trim() });
  }
  return rules;
}

/** The rule that opens a file of this suffix, if any. */
export const iframeRuleFor = (rules: readonly IframeRule[], suffix: string) =>
  rules.find((rule) => rule.suffixes.includes(suffix.toLowerCase()));

/** A viewer's address for a file: `$e_url` is the absolute bytes address, URI-encoded. */
export function iframeAddress(
  rule: IframeRule,
  bytesUrl: string,
  origin = window.location.origin,
): string {
  const absolute = new URL(bytesUrl, origin).href;
  return rule.template.replaceAll('$e_url', encodeURIComponent(absolute));
}
