import { ErrorCode, type ErrorCodeValue } from '@nimbus/contract';

/** A rule broken by the caller: answered with its code and message, never logged as a fault. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
    readonly details?: unknown,
    /** An HTTP status other than the code's usual one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notLoggedIn = (message = 'Not logged in or the session has expired') =>
  new AppError(ErrorCode.NOT_LOGGED_IN, message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError(ErrorCode.PERMISSION_DENIED, message);
export const badParameter = (message: string, details?: unknown) =>
  new AppError(ErrorCode.BAD_PARAMETER, message, details);
export const notFound = (message: string) => new AppError(ErrorCode.NOT_FOUND, message);
export const exists = (message: string) => new AppError(ErrorCode.EXISTS, message);
