import { ErrorCode } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';
import { sha256 } from '../../lib/ids.ts';
import { AttemptRepo } from './auth.repo.ts';

/**
 * A limit on guesses of one secret: at most `limit` attempts under `key`, each within
 * `windowMs` of the one before. A key that reached its limit refuses until `windowMs` has passed
 * since its last attempt, so no span of `windowMs` ever holds more than `limit` attempts.
 */
export interface AttemptRule {
  key: string;
  limit: number;
  windowMs: number;
}

/** The longest window of any rule in use: rows older than this count for nothing. */
export const LONGEST_WINDOW_MS = 60 * 60_000;

/**
 * A key as stored: keys hold what clients send (usernames, addresses from a proxy header), so a
 * long one is kept as its hash.
 */
const storedKey = (key: string) => (key.length <= 120 ? key : `#${sha256(key)}`);

/** How often, at most, inserting a row also removes the rows that count for nothing. */
const PRUNE_EVERY_MS = 60_000;

export type Reservation =
  | { granted: true; keys: string[] }
  | { granted: false; refused: AttemptRule; retryAfterMs: number };

/** The answer to a caller who must wait: code 22, HTTP 429, with the seconds to wait. */
export function tooManyAttempts(what: string, retryAfterMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new AppError(
    ErrorCode.TOO_MANY_REQUESTS,
    `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
  );
}

/**
 * The one limiter of guesses (passwords at sign-in, current passwords, share codes), kept in the
 * database so every node shares it. An attempt is **reserved before the secret is checked**, by
 * one conditional statement per key, so requests arriving together cannot all pass a check made
 * before any of them is counted, on SQLite and on PostgreSQL alike. A reservation whose check
 * passes is given back; one whose check fails stays counted.
 */
export class AttemptLimiter {
  private lastPrune = 0;
  private readonly repo: AttemptRepo;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new AttemptRepo(db);
  }

  /** Reserve one attempt under every rule, or none when any of them refuses. */
  async reserve(rules: AttemptRule[]): Promise<Reservation> {
    const taken: string[] = [];
    for (const given of rules) {
      const rule = { ...given, key: storedKey(given.key) };
      if (await this.take(rule)) {
        taken.push(rule.key);
        continue;
      }
      for (const key of taken) await this.giveBack(key);
      return { granted: false, refused: given, retryAfterMs: await this.retryAfterMs(rule) };
    }
    return { granted: true, keys: taken };
  }

  /** A reserved attempt whose check passed: it does not count. */
  async release(reservation: { keys: string[] }): Promise<void> {
    for (const key of reservation.keys) await this.giveBack(key);
  }

  /**
   * Reserve, run the check, and settle: true when it passed. Refused attempts never run the
   * check and throw `refusal`'s error.
   */
  async guard(
    rules: AttemptRule[],
    check: () => boolean | Promise<boolean>,
    refusal: (retryAfterMs: number) => AppError,
  ): Promise<boolean> {
    const reservation = await this.reserve(rules);
    if (!reservation.granted) throw refusal(reservation.retryAfterMs);
    let passed: boolean;
    try {
      passed = await check();
    } catch (err) {
      // an attempt whose check could not run is not held against anyone
      await this.release(reservation);
      throw err;
    }
    if (passed) await this.release(reservation);
    return passed;
  }

  /** Remove rows that count for nothing any more. */
  async prune(): Promise<void> {
    const now = this.now();
    this.lastPrune = now;
    await this.repo.deleteQuietSince(now - LONGEST_WINDOW_MS);
  }

  /** One attempt under one rule, counted by a single conditional statement: true when taken. */
  private async take(rule: AttemptRule): Promise<boolean> {
    const now = this.now();
    if (await this.bump(rule, now)) return true;
    if (await this.repo.insertFirst(rule.key, now)) {
      if (now - this.lastPrune >= PRUNE_EVERY_MS) await this.prune();
      return true;
    }
    // the row exists: it is full, or another request inserted it a moment ago
    return this.bump(rule, now);
  }

  private bump(rule: AttemptRule, now: number): Promise<boolean> {
    return this.repo.bump(rule.key, now, now - rule.windowMs, rule.limit);
  }

  private giveBack(key: string): Promise<void> {
    return this.repo.giveBack(key);
  }

  private async retryAfterMs(rule: AttemptRule): Promise<number> {
    const lastAt = await this.repo.lastAt(rule.key);
    return Math.max(1000, (lastAt ?? this.now()) + rule.windowMs - this.now());
  }
}
