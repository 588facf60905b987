import { SUCCESS_MESSAGE } from '@nimbus/contract';

/** A success envelope: its data is required by the route's response schema. */
export interface Answer<T> {
  code: number;
  message: string;
  data: T;
  count?: number;
}

/** A success envelope; `message` other than 'true' is shown to the user as a toast. */
export function ok<T = undefined>(
  data?: T,
  extra: { count?: number; message?: string } = {},
): Answer<T> {
  const body = { code: 0, message: extra.message ?? SUCCESS_MESSAGE } as Answer<T>;
  if (data !== undefined) body.data = data;
  if (extra.count !== undefined) body.count = extra.count;
  return body;
}
