import type { AuditAction, AuditEntry } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import { AuditRepo } from './audit.repo.ts';

/** How long entries are kept. */
export const AUDIT_KEEP_MS = 365 * 24 * 60 * 60 * 1000;
/** Old entries are swept once per this many new ones. */
const PRUNE_EVERY = 500;

export interface AuditRecord {
  userId: string | null;
  username: string;
  action: AuditAction;
  target?: string;
  ip: string;
  ok: boolean;
}

/**
 * The audit log: sign-ins (failed ones too) and every change to the drive's administration or to
 * someone's own security, with who, when and from where; read by administrators only.
 */
export class AuditService {
  private readonly repo: AuditRepo;
  private sinceSweep = 0;

  constructor(db: Db) {
    this.repo = new AuditRepo(db);
  }

  /** Write an entry (the caller logs a failure: it is never the request's failure). */
  async record(entry: AuditRecord): Promise<void> {
    {
      await this.repo.insert({
        id: newId(),
        at: Date.now(),
        userId: entry.userId,
        username: entry.username.slice(0, 255),
        action: entry.action,
        target: entry.target ? entry.target.slice(0, 512) : null,
        ip: entry.ip.slice(0, 64),
        ok: entry.ok ? 1 : 0,
      });
      if (++this.sinceSweep >= PRUNE_EVERY) {
        this.sinceSweep = 0;
        await this.repo.prune(Date.now() - AUDIT_KEEP_MS);
      }
    }
  }

  /** A page of entries, newest first (administrators: the drive-settings authority). */
  async list(
    actor: Actor,
    query: { pageIndex: number; pageSize: number; action?: string; username?: string },
  ): Promise<{ items: AuditEntry[]; total: number }> {
    requireAuthority(actor, 'cloud:set:sync');
    const { rows, total } = await this.repo.page(
      { action: query.action, username: query.username },
      (query.pageIndex - 1) * query.pageSize,
      query.pageSize,
    );
    return {
      items: rows.map((r) => ({
        id: r.id,
        time: formatDateTime(r.at),
        username: r.username,
        action: r.action as AuditAction,
        target: r.target ?? '',
        ip: r.ip,
        ok: r.ok === 1,
      })),
      total,
    };
  }
}
