import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@nimbus/contract';
import { AppError } from './errors.ts';

/**
 * A server-wide allowance of bytes held at once by one kind of large request body (a document
 * saved as JSON is read whole into memory): what would go over it is refused at once with
 * "try again", before a byte of its body is read, instead of waiting in memory. Unlike a Gate,
 * nothing queues: a body waiting would already be held.
 */
export class ByteBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Hold `bytes` of the allowance; false (nothing held) when they do not fit. */
  take(bytes: number): boolean {
    if (bytes > this.limit - this.used) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get held(): number {
    return this.used;
  }

  /**
   * A `preParsing` hook: holds the body's declared length (the body limit when none is
   * declared: `bodyLimit`, else the route's) until the answer is sent or the connection closes.
   */
  hook(bodyLimit?: number) {
    return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const limit = bodyLimit ?? request.routeOptions.bodyLimit ?? this.limit;
      const declared = Number(request.headers['content-length']);
      const bytes = Number.isFinite(declared) && declared >= 0 ? Math.min(declared, limit) : limit;
      if (!this.take(bytes))
        throw new AppError(
          ErrorCode.TOO_MANY_REQUESTS,
          `The server is busy with other large requests; try again in a moment`,
        );
      let held = true;
      reply.raw.once('close', () => {
        if (held) this.give(bytes);
        held = false;
      });
    };
  }
}
