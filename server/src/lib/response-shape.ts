import type { ZodType } from 'zod';
import { describeIssues } from '@nimbus/contract';

/** An answer that its route's response schema does not allow (raised only when checking). */
export class ResponseShapeError extends Error {
  override name = 'ResponseShapeError';
}

/**
 * Serializes JSON answers. Routes declare their response with the contract's schemas (for
 * /api/docs and the web app's types); with `check` on, as in the tests, every answer is held
 * against its schema and one that does not fit fails loudly. Production only serializes: the
 * schemas describe, the tests enforce.
 */
export function responseSerializer(check: boolean) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const shape = schema as ZodType;
    return (data: unknown): string => {
      if (check) {
        const result = shape.safeParse(data);
        if (!result.success)
          throw new ResponseShapeError(
            `${method} ${url} answered a shape its schema does not allow: ${describeIssues(result.error.issues)}`,
          );
      }
      return JSON.stringify(data);
    };
  };
}
