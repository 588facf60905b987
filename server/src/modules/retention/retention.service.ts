import type { AuditService } from '../audit/audit.service.ts';
import type { TrashService } from '../files/trash.service.ts';
import type { HistoryService } from '../history/history.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionDeps {
  settings: SettingsService;
  trash: TrashService;
  history: HistoryService;
  audit: AuditService;
  /** Every account that owns a drive. */
  owners: () => Promise<Array<{ id: string; username: string }>>;
}

/** What one run removed. */
export interface RetentionRun {
  trashItems: number;
  versions: number;
}

/**
 * Retention run in the background (the `retention` job): trash items older than the
 * administrator's `trashRetentionDays` go for good by the owner's own sweep, and versions beyond
 * `versionsPerFile` and `versionRetentionDays` go by the history's one rule; each owner's losses
 * are one audit entry. Every step reads what is still there, so a second run, or one after a
 * crash, converges. A failure with one drive does not stop the others: the run fails at its end
 * (the queue logs it and runs it again).
 */
export class RetentionService {
  constructor(private readonly deps: RetentionDeps) {}

  async run(now = Date.now()): Promise<RetentionRun> {
    const { settings, trash, history } = this.deps;
    const owners = await this.deps.owners();
    const usernames = new Map(owners.map((o) => [o.id, o.username]));
    const failures: unknown[] = [];
    let trashItems = 0;
    const days = await settings.get('trashRetentionDays');
    if (days > 0) {
      for (const owner of owners) {
        try {
          const gone = await trash.expire(owner, now - days * DAY_MS);
          if (gone.length === 0) continue;
          trashItems += gone.length;
          const names = gone.map((r) => r.name).join(', ');
          await this.record(
            owner,
            'trash.expire',
            `${gone.length} trash item(s) older than ${days} days: ${names}`,
          );
        } catch (err) {
          failures.push(err);
        }
      }
    }
    let versions = 0;
    const policy = await history.policy();
    const kept =
      policy.maxAgeDays > 0
        ? `the newest ${policy.keep} younger than ${policy.maxAgeDays} days`
        : `the newest ${policy.keep}`;
    for (const [userId, count] of await history.expire(now)) {
      versions += count;
      try {
        await this.record(
          { id: userId, username: usernames.get(userId) ?? '' },
          'versions.expire',
          `${count} version(s) beyond ${kept} of each file`,
        );
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length > 0)
      throw new AggregateError(failures, `retention failed for ${failures.length} drive(s)`);
    return { trashItems, versions };
  }

  /** An owner's losses in the audit log: no request made them, so no address. */
  private record(
    owner: { id: string; username: string },
    action: 'trash.expire' | 'versions.expire',
    target: string,
  ): Promise<void> {
    return this.deps.audit.record({
      userId: owner.id,
      username: owner.username,
      action,
      target,
      ip: '',
      ok: true,
    });
  }
}
