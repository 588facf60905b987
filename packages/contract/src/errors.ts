/**
 * Response codes of the API envelope. Numbers follow the codes the spec's client knows
 * (0 success, -2 warning, 5 not logged in / expired); each has one HTTP status.
 */
export const ErrorCode = {
  IGNORE: -3,
  WARNING: -2,
  ERROR: -1,
  SUCCESS: 0,
  MISSING_PARAMETER: 1,
  BAD_DATE: 2,
  MISSING_HEADER: 3,
  EXISTS: 4,
  NOT_LOGGED_IN: 5,
  WRONG_SHARE_CODE: 6,
  FILE_NOT_FOUND: 7,
  PERMISSION_DENIED: 8,
  CUSTOM: 9,
  BAD_PARAMETER: 10,
  OFFLINE: 11,
  USER_NOT_FOUND: 12,
  DIRECTORY_NOT_FOUND: 13,
  DECOMPRESS_FAILED: 14,
  UNRECOGNIZED_FILE: 15,
  MERGE_FAILED: 16,
  DELETE_FAILED: 17,
  UPLOAD_FAILED: 18,
  ACCESS_FORBIDDEN: 19,
  SPACE_FULL: 20,
  LOCKED: 21,
  TOO_MANY_REQUESTS: 22,
  NOT_FOUND: 23,
  /** The content changed since the client read it (a save from a stale base). */
  CHANGED_MEANWHILE: 24,
  /** The item is locked (a WebDAV lock) by someone else until a given time. */
  ITEM_LOCKED: 25,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

/** The HTTP status each code is answered with. */
export const httpStatusOf: Record<ErrorCodeValue, number> = {
  [ErrorCode.IGNORE]: 200,
  [ErrorCode.WARNING]: 200,
  [ErrorCode.ERROR]: 500,
  [ErrorCode.SUCCESS]: 200,
  [ErrorCode.MISSING_PARAMETER]: 422,
  [ErrorCode.BAD_DATE]: 422,
  [ErrorCode.MISSING_HEADER]: 400,
  [ErrorCode.EXISTS]: 409,
  [ErrorCode.NOT_LOGGED_IN]: 401,
  [ErrorCode.WRONG_SHARE_CODE]: 403,
  [ErrorCode.FILE_NOT_FOUND]: 404,
  [ErrorCode.PERMISSION_DENIED]: 403,
  [ErrorCode.CUSTOM]: 400,
  [ErrorCode.BAD_PARAMETER]: 422,
  [ErrorCode.OFFLINE]: 503,
  [ErrorCode.USER_NOT_FOUND]: 404,
  [ErrorCode.DIRECTORY_NOT_FOUND]: 404,
  [ErrorCode.DECOMPRESS_FAILED]: 422,
  [ErrorCode.UNRECOGNIZED_FILE]: 415,
  [ErrorCode.MERGE_FAILED]: 500,
  [ErrorCode.DELETE_FAILED]: 500,
  [ErrorCode.UPLOAD_FAILED]: 500,
  [ErrorCode.ACCESS_FORBIDDEN]: 403,
  // the drive (its quota) has no room for the request: the client's to change, not a fault
  [ErrorCode.SPACE_FULL]: 413,
  [ErrorCode.LOCKED]: 423,
  [ErrorCode.TOO_MANY_REQUESTS]: 429,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CHANGED_MEANWHILE]: 409,
  [ErrorCode.ITEM_LOCKED]: 423,
};

/** Every API answer has this shape. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
  count?: number;
  props?: Record<string, unknown>;
}

/** The message of a success that the client should not toast (spec §8). */
export const SUCCESS_MESSAGE = 'true';
