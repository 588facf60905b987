import {
  DEFAULT_TAG_COLOR,
  ErrorCode,
  TAG_COLOR_PATTERN,
  TAG_MESSAGES,
  tagNameProblem,
  type TagItem,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter, exists } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FilesService } from '../files/files.service.ts';
import { TagsRepo, type TagRow } from './tags.repo.ts';
import type { FilesRepo } from '../files/files.repo.ts';

export interface TagInput {
  id?: string;
  name?: string;
  color?: string;
}

export interface SetTagsInput {
  fileIds: string[];
  tagList: TagInput[];
  removeTagIds: string[];
}

const slugOf = (name: string) => name.trim().toLowerCase().replace(/\s+/g, '-');

export function toTagItem(row: TagRow): TagItem {
  return {
    id: row.id,
    tagId: row.id,
    userId: row.userId,
    name: row.name,
    slug: slugOf(row.name),
    color: row.color,
    tagBackground: null,
    sort: row.sort,
  };
}

function checkName(raw: string | undefined): string {
  const problem = tagNameProblem(raw);
  if (problem || raw === undefined) throw badParameter(TAG_MESSAGES[problem ?? 'required']);
  return raw.trim().normalize('NFC');
}

function checkColor(raw: string | undefined): string {
  if (raw === undefined || raw === '') return DEFAULT_TAG_COLOR;
  const color = raw.trim();
  if (!TAG_COLOR_PATTERN.test(color)) throw badParameter(TAG_MESSAGES.color);
  return color.toLowerCase();
}

const sameName = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

/** Each user's tags (spec §5 rules) and the tags of their files. */
export class TagsService {
  readonly repo: TagsRepo;

  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
  ) {
    this.repo = new TagsRepo(db);
  }

  private changed(userId: string, body: { tagIds?: string[]; fileIds?: string[] }): void {
    this.files.notify(userId, 'updateTags', body);
  }

  async list(actor: Actor): Promise<TagItem[]> {
    return (await this.repo.list(actor.id)).map(toTagItem);
  }

  async info(actor: Actor, id: string): Promise<TagItem> {
    const row = await this.repo.byId(actor.id, id);
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'This tag does not exist');
    return toTagItem(row);
  }

  /** Tags whose names fit a test (search by tag name). */
  async matching(userId: string, test: (name: string) => boolean): Promise<TagRow[]> {
    return (await this.repo.list(userId)).filter((t) => test(t.name));
  }

  private async create(userId: string, input: TagInput, trx: Db): Promise<TagRow> {
    const name = checkName(input.name);
    const color = checkColor(input.color);
    const all = await this.repo.list(userId, trx);
    if (all.some((t) => sameName(t.name, name))) throw exists(TAG_MESSAGES.exists);
    const now = Date.now();
    const row: TagRow = {
      id: newId(),
      userId,
      name,
      color,
      sort: await this.repo.nextSort(userId, trx),
      createdAt: now,
      updatedAt: now,
    };
    await this.repo.insert(row, trx);
    return row;
  }

  async add(actor: Actor, input: TagInput): Promise<TagItem> {
    requireAuthority(actor, 'cloud:file:update');
    const row = await this.db.transaction().execute((trx) => this.create(actor.id, input, trx));
    this.changed(actor.id, { tagIds: [row.id] });
    return toTagItem(row);
  }

  async update(actor: Actor, input: TagInput): Promise<TagItem> {
    requireAuthority(actor, 'cloud:file:update');
    if (!input.id) throw badParameter('Choose a tag');
    const row = await this.db.transaction().execute(async (trx) => {
      const tag = await this.repo.byId(actor.id, input.id!, trx);
      if (!tag) throw new AppError(ErrorCode.NOT_FOUND, 'This tag does not exist');
      const name = input.name === undefined ? tag.name : checkName(input.name);
      const color = input.color === undefined ? tag.color : checkColor(input.color);
      const all = await this.repo.list(actor.id, trx);
      if (all.some((t) => t.id !== tag.id && sameName(t.name, name)))
        throw exists(TAG_MESSAGES.exists);
      await this.repo.update(actor.id, tag.id, { name, color }, trx);
      return { ...tag, name, color };
    });
    this.changed(actor.id, { tagIds: [row.id] });
    return toTagItem(row);
  }

  async remove(actor: Actor, ids: string[]): Promise<number> {
    requireAuthority(actor, 'cloud:file:update');
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badParameter('Choose at least one tag');
    const removed = await this.repo.remove(actor.id, unique);
    this.changed(actor.id, { tagIds: unique });
    return removed;
  }

  /** New order: the given ids first, in that order; tags not named keep theirs after them. */
  async sort(actor: Actor, ids: string[]): Promise<TagItem[]> {
    requireAuthority(actor, 'cloud:file:update');
    const rows = await this.db.transaction().execute(async (trx) => {
      const all = await this.repo.list(actor.id, trx);
      const known = new Map(all.map((t) => [t.id, t]));
      const order = [...new Set(ids)].filter((id) => known.has(id));
      for (const t of all) if (!order.includes(t.id)) order.push(t.id);
      for (const [i, id] of order.entries())
        if (known.get(id)!.sort !== i) await this.repo.update(actor.id, id, { sort: i }, trx);
      return order.map((id, i) => ({ ...known.get(id)!, sort: i }));
    });
    this.changed(actor.id, { tagIds: rows.map((r) => r.id) });
    return rows.map(toTagItem);
  }

  /**
   * Tag files: tags of `tagList` are added to every file (created on the fly when they have
   * no id, or found by name), the tags of `removeTagIds` are taken off.
   */
  async setTags(actor: Actor, input: SetTagsInput): Promise<TagItem[]> {
    requireAuthority(actor, 'cloud:file:update');
    const fileIds = [...new Set(input.fileIds)];
    if (fileIds.length === 0) throw badParameter('Choose at least one file');
    const files = await this.fileRows.liveMany(actor.id, fileIds);
    if (files.length !== fileIds.length)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'Some of these files no longer exist');
    const used = await this.db.transaction().execute(async (trx) => {
      const tags: TagRow[] = [];
      for (const item of input.tagList) {
        if (item.id) {
          const tag = await this.repo.byId(actor.id, item.id, trx);
          if (!tag) throw new AppError(ErrorCode.NOT_FOUND, 'This tag does not exist');
          tags.push(tag);
          continue;
        }
        const name = checkName(item.name);
        const found = (await this.repo.list(actor.id, trx)).find((t) => sameName(t.name, name));
        tags.push(found ?? (await this.create(actor.id, { name, color: item.color }, trx)));
      }
      const removing = [...new Set(input.removeTagIds)].filter(
        (id) => !tags.some((t) => t.id === id),
      );
      await this.repo.detach(actor.id, fileIds, removing, trx);
      await this.repo.attach(
        actor.id,
        fileIds,
        tags.map((t) => t.id),
        trx,
      );
      return tags;
    });
    this.changed(actor.id, { fileIds, tagIds: used.map((t) => t.id) });
    return used.map(toTagItem);
  }

  /** The tags of files, by file id. */
  async ofFiles(actor: Actor, fileIds: string[]): Promise<Record<string, TagItem[]>> {
    const map = await this.repo.ofFiles(actor.id, [...new Set(fileIds)]);
    const out: Record<string, TagItem[]> = {};
    for (const id of fileIds) out[id] = (map.get(id) ?? []).map(toTagItem);
    return out;
  }

  /** A listing's items, each with the owner's tags on it (one query for the page). */
  async withTags<T extends { id: string; mount?: unknown }>(
    owner: { id: string },
    items: T[],
  ): Promise<Array<T & { tags: TagItem[] }>> {
    const ids = items.filter((item) => !item.mount).map((item) => item.id);
    const map = ids.length ? await this.repo.ofFiles(owner.id, ids) : new Map<string, TagRow[]>();
    return items.map((item) => ({ ...item, tags: (map.get(item.id) ?? []).map(toTagItem) }));
  }
}
