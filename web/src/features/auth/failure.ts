import { ApiError } from '../../api/client';

/** The server's reason for a refused sign-in step, or a general line when there is none. */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.kind === 'business' ? error.message : fallback;
}
