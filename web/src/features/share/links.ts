import type { TFunction } from 'i18next';

/** The address of a share page: `${origin}/s/<address>`, with `?code=` for a private one. */
export function shareLink(shortId: string, code?: string | null): string {
  const base = `${window.location.origin}/s/${encodeURIComponent(shortId)}`;
  return code ? `${base}?code=${encodeURIComponent(code)}` : base;
}

/** "Copy link with code": the link that fills the code in, and the code spelled out. */
export function shareLinkWithCode(shortId: string, code: string, t: TFunction<'share'>): string {
  return t('dialog.withCodeText', { link: shareLink(shortId, code), code });
}
