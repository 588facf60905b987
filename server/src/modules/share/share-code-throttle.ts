import { tooManyAttempts, type AttemptLimiter, type AttemptRule } from '../auth/attempt-limiter.ts';

/**
 * Share-code guesses, through the one attempt limiter: five per share and address, so one
 * visitor cannot lock out the others, and a hundred per share, so many addresses together cannot
 * guess a code. Each counts until its window passes without a guess.
 */
function rules(shareId: string, ip: string): { visitor: AttemptRule; share: AttemptRule } {
  return {
    visitor: { key: `share:${shareId}@${ip}`, limit: 5, windowMs: 15 * 60_000 },
    share: { key: `share:${shareId}`, limit: 100, windowMs: 60 * 60_000 },
  };
}

export class ShareCodeThrottle {
  constructor(private readonly attempts: AttemptLimiter) {}

  /**
   * Reserve a guess, then run the comparison: true when the code is right. A visitor out of
   * guesses gets code 22 (HTTP 429) without the code being compared.
   */
  async check(shareId: string, ip: string, isRight: () => boolean): Promise<boolean> {
    const { visitor, share } = rules(shareId, ip);
    return this.attempts.guard([share, visitor], isRight, (ms) =>
      tooManyAttempts('wrong share codes', ms),
    );
  }
}
