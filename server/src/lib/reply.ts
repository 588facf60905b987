import { SUCCESS_MESSAGE, type Envelope } from '@nimbus/contract';

/** A success envelope; `message` other than 'true' is shown to the user as a toast. */
export function ok<T>(data?: T, extra: { count?: number; message?: string } = {}): Envelope<T> {
  const body: Envelope<T> = { code: 0, message: extra.message ?? SUCCESS_MESSAGE };
  if (data !== undefined) body.data = data;
  if (extra.count !== undefined) body.count = extra.count;
  return body;
}
