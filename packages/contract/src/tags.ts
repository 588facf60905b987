import { z } from 'zod';
import { DEFAULT_TAG_COLOR } from './constants.ts';
import { endpoint } from './endpoint.ts';
import { listField } from './validation.ts';

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
export const tagItem = z.object({
  id: z.string(),
  /** The same id, under the name some calls use. */
  tagId: z.string(),
  userId: z.string(),
  name: z.string(),
  slug: z.string(),
  color: z.string(),
  tagBackground: z.string().nullable(),
  sort: z.number(),
});
export type TagItem = z.infer<typeof tagItem>;

// ---- requests (API-NOTES §1.10, §1.5 setTag) ------------------------------------------------

const id = z.string().max(64);

/** The fields of a tag to add or change, from a JSON body or (form-style calls) the query. */
export const tagFields = z.object({
  id: id.optional(),
  tagId: id.optional(),
  name: z.string().max(200).optional(),
  color: z.string().max(32).optional(),
});
export type TagFields = z.infer<typeof tagFields>;

export const tagInfoQuery = z.object({ tagId: id.optional(), id: id.optional() });
export const fileTagsQuery = z.object({ fileIds: listField() });
export const tagDeleteQuery = z.object({
  tagIds: listField(),
  ids: listField(),
  tagId: listField(),
});
export const tagDeleteOneQuery = z.object({ tagId: listField() });

/** The new order: the ids alone, or `{ tagIds }`. */
export const tagSortBody = z.union([
  z.array(id).max(10_000),
  z.object({ tagIds: z.array(id).max(10_000) }),
]);

export const setTagsBody = z.object({
  fileIds: z.array(id).min(1).max(10_000),
  tagList: z
    .array(
      z.object({
        id: id.nullish(),
        tagId: id.nullish(),
        name: z.string().max(200).nullish(),
        color: z.string().max(32).nullish(),
      }),
    )
    .max(200)
    .default([]),
  removeTagIds: z.array(id).max(200).default([]),
});
export type SetTagsBody = z.input<typeof setTagsBody>;

// ---- answers --------------------------------------------------------------------------------

export const tagList = z.array(tagItem);
/** The tags of each file asked about, by file id. */
export const tagsByFile = z.record(z.string(), z.array(tagItem));

// ---- endpoints ------------------------------------------------------------------------------

/** The fields of a tag to add or change sent as a JSON body (or, form-style, in the query). */
const tagFieldsBody = tagFields.nullish();

/** Tags (API-NOTES §1.10) and file tagging (§1.5 setTag, updateTag, deleteTag). */
export const tagsApi = {
  /** The person's tags in their order. */
  list: endpoint({ method: 'GET', path: '/tag/list', answer: tagList, access: 'user' }),
  /** One tag, by `tagId` (or `id`). */
  info: endpoint({
    method: 'GET',
    path: '/tag/info',
    query: tagInfoQuery,
    answer: tagItem,
    access: 'user',
  }),
  /** The tags of some files: the tag dialog and the details drawer show them. */
  ofFiles: endpoint({
    method: 'GET',
    path: '/tag/fileTags',
    query: fileTagsQuery,
    answer: tagsByFile,
    access: 'user',
  }),
  /** A new tag. */
  add: endpoint({
    method: 'POST',
    path: '/tag/add',
    query: tagFields,
    body: tagFieldsBody,
    answer: tagItem,
    access: 'user',
  }),
  /** A tag's new name or colour. */
  update: endpoint({
    method: 'PUT',
    path: '/tag/update',
    query: tagFields,
    body: tagFieldsBody,
    answer: tagItem,
    access: 'user',
  }),
  /** The same, under the original client's name. */
  updateOriginal: endpoint({
    method: 'PUT',
    path: '/updateTag',
    query: tagFields,
    body: tagFieldsBody,
    answer: tagItem,
    access: 'user',
  }),
  /** Deletes tags (taking them off every file). */
  remove: endpoint({
    method: 'DELETE',
    path: '/tag/delete',
    query: tagDeleteQuery,
    answer: null,
    access: 'user',
  }),
  /** The same, under the original client's name. */
  removeOriginal: endpoint({
    method: 'DELETE',
    path: '/deleteTag',
    query: tagDeleteOneQuery,
    answer: null,
    access: 'user',
  }),
  /** The tags' new order. */
  sort: endpoint({
    method: 'POST',
    path: '/tag/sort',
    body: tagSortBody,
    answer: tagList,
    access: 'user',
  }),
  /** The tags of some files: tags put on (new ones created by name) and taken off. */
  setOnFiles: endpoint({
    method: 'POST',
    path: '/setTag',
    body: setTagsBody,
    answer: tagList,
    access: 'user',
  }),
};
