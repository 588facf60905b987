import { z } from 'zod';

/**
 * The envelope every JSON answer has (`{ code, message, data?, count?, props? }`), with the
 * shape of its `data`. Routes declare it as their 200 response, so /api/docs shows each shape
 * and the tests refuse an answer its schema does not allow.
 */
export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({
    code: z.number().int(),
    message: z.string(),
    data,
    count: z.number().int().optional(),
    props: z.record(z.string(), z.unknown()).optional(),
  });

/** An envelope without data: a confirmation. */
export const emptyEnvelope = z.object({
  code: z.number().int(),
  message: z.string(),
});

/** The 200 response of a route: `{ 200: envelopeOf(shape) }`. */
export const answers = <T extends z.ZodType>(data: T) => ({ 200: envelopeOf(data) });
/** The 200 response of a route that only confirms. */
export const confirms = { 200: emptyEnvelope } as const;
