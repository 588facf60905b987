import { z } from 'zod';
import { DEFAULT_TAG_COLOR } from './constants.ts';

export const TAG_NAME_MAX_LENGTH = 32;
/** spec §5: a tag name must not contain [ ] / \ " < > ? * */
export const TAG_NAME_FORBIDDEN = /[[\]/\\"<>?*]/;
export const TAG_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** The messages of the tag rules (spec §5, §8); the web shows its own translations. */
export const TAG_MESSAGES = {
  required: 'enter a tag name',
  forbidden: 'a tag name cannot contain [ ] / \\ " < > ? *',
  tooLong: `a tag name has at most ${TAG_NAME_MAX_LENGTH} characters`,
  color: 'the colour must be a hex colour such as #f56c6c',
  exists: 'a tag with this name already exists',
} as const;

export type TagNameProblem = 'required' | 'forbidden' | 'tooLong';

/** What is wrong with a tag name, or null when it is fine. */
export function tagNameProblem(name: unknown): TagNameProblem | null {
  const text = typeof name === 'string' ? name.trim() : '';
  if (text === '') return 'required';
  if (TAG_NAME_FORBIDDEN.test(text)) return 'forbidden';
  if ([...text].length > TAG_NAME_MAX_LENGTH) return 'tooLong';
  return null;
}

export const tagName = z.string().superRefine((value, ctx) => {
  const problem = tagNameProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: TAG_MESSAGES[problem] });
});

export const tagColor = z
  .string()
  .trim()
  .regex(TAG_COLOR_PATTERN, TAG_MESSAGES.color)
  .default(DEFAULT_TAG_COLOR);

/** A tag as the API returns it (API-NOTES §1.10). */
export interface TagItem {
  id: string;
  /** The same id, under the name some calls use. */
  tagId: string;
  userId: string;
  name: string;
  slug: string;
  color: string;
  tagBackground: string | null;
  sort: number;
}
