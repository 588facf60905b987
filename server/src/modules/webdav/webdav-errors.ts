import { ErrorCode } from '@nimbus/contract';
import { type AppError } from '../../lib/errors.ts';

/**
 * A WebDAV answer other than success: an HTTP status, and where RFC 4918 names one, the
 * precondition that failed (sent as `<D:error><D:name/></D:error>`).
 */
export class DavError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly condition?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DavError';
  }
}

/** The status a rule broken in the services stands for in WebDAV. */
export function davStatusOf(err: AppError): number {
  switch (err.code) {
    case ErrorCode.SPACE_FULL:
      return 507;
    case ErrorCode.FILE_NOT_FOUND:
    case ErrorCode.DIRECTORY_NOT_FOUND:
    case ErrorCode.NOT_FOUND:
      return 404;
    case ErrorCode.EXISTS:
      return 405;
    case ErrorCode.PERMISSION_DENIED:
    case ErrorCode.ACCESS_FORBIDDEN:
      return 403;
    case ErrorCode.BAD_PARAMETER:
      return 400;
    case ErrorCode.TOO_MANY_REQUESTS:
      return 429;
    case ErrorCode.ITEM_LOCKED:
      return 423;
    default:
      return err.status && err.status >= 400 ? err.status : 409;
  }
}

export const locked = (message = 'The item is locked') =>
  new DavError(423, message, 'lock-token-submitted');
export const preconditionFailed = (message = 'A condition of the request does not hold') =>
  new DavError(412, message);
export const conflict = (message: string) => new DavError(409, message);
export const notFound = (message = 'Not found') => new DavError(404, message);
