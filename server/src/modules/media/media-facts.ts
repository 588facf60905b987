import type { MusicTags } from '@nimbus/contract';

/** This module's key in a file's `media` facts (the images module keeps `image` beside it). */
export const FACTS_KEY = 'av';

/** The `media` JSON of a row as an object of keys, one per kind of facts. */
export function factsOf(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The music tags recorded for a row's current bytes (spec §3 File: music), if any. */
export function musicOf(row: { media: string | null; hash: string | null }): MusicTags | null {
  if (!row.media || !row.hash) return null;
  const av = factsOf(row.media)[FACTS_KEY] as { hash?: string; music?: MusicTags } | undefined;
  return av?.hash === row.hash && av.music ? av.music : null;
}
