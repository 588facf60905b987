import { ErrorCode, SUCCESS_MESSAGE, type Envelope } from '@nimbus/contract';

/** A translation of a key, or undefined when the language has none. */
export type Translate = (key: string) => string | undefined;

/**
 * The text of a failed envelope in the user's language: the translation of its code, with the
 * server's own message (English, and more precise) as the detail. Errors are told apart by
 * their code only, never by their message or HTTP status. Warnings (-2), the generic error (-1)
 * and codes without a translation show the server's message alone; an envelope without either a
 * generic text.
 */
export function describeFailure(
  envelope: Pick<Envelope, 'code' | 'message'>,
  translate: Translate,
): string {
  const detail =
    envelope.message && envelope.message !== SUCCESS_MESSAGE ? envelope.message.trim() : '';
  // -1 only says "something went wrong": the server's message, when there is one, says it better
  const generic = envelope.code === ErrorCode.ERROR && detail !== '';
  const title =
    envelope.code === ErrorCode.WARNING || envelope.code === ErrorCode.CUSTOM || generic
      ? undefined
      : translate(`errors:${envelope.code}`);
  if (title && detail && detail.toLowerCase() !== title.toLowerCase())
    return `${title} — ${detail}`;
  return title ?? (detail || (translate('common:request.distracted') ?? 'Something went wrong'));
}
