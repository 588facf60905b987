import type { z } from 'zod';

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint:
 * - `public`: anyone (the actor is still known when a token comes with the request);
 * - `user`: a signed-in person, or an access token whose scope allows the call;
 * - `session`: a signed-in person in a browser session, never an access token (the account's
 *   own security: password, second factor, tokens).
 */
export type EndpointAccess = 'public' | 'user' | 'session';

/** The answer of an endpoint that sends bytes (a file, a text stream), not an envelope. */
export type BytesAnswer = 'bytes';

/**
 * One endpoint of the API, the single place its shape is written: the server registers its
 * route from it (schemas, access), the web app calls it through a client typed by it, and the
 * OpenAPI document at /api/docs is generated from the routes so registered.
 */
export interface Endpoint<
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Answer extends z.ZodType | null | BytesAnswer = z.ZodType | null | BytesAnswer,
> {
  method: EndpointMethod;
  /** The path under `/api`. */
  path: string;
  query?: Query;
  body?: Body;
  /**
   * The shape of the envelope's `data`; `null` for an answer that only confirms; `'bytes'` for
   * one that sends bytes instead of an envelope.
   */
  answer: Answer;
  access: EndpointAccess;
  /**
   * The authority a caller must hold (administrators hold every one). The service checks it;
   * the API test over every definition proves a caller without it is refused.
   */
  authority?: string;
  /** The most bytes its body may have (else the server's default); more is refused with 413. */
  bodyLimit?: number;
  /**
   * A `public` endpoint that an access token may not call either: it answers nobody, or a
   * person in a browser session (the second factor's setup, during a sign-in or after it).
   */
  refusesTokens?: boolean;
  /** A GET that changes something: refused to read-only access tokens. */
  changes?: boolean;
  /** A POST that only reads: read-only access tokens may send it. */
  readsOnly?: boolean;
  /**
   * A GET of bytes the browser fetches itself (a download link, which carries no token
   * header): the session cookie signs it in.
   */
  cookieAuth?: boolean;
  /** The body is a multipart form the handler reads part by part (so it has no schema). */
  multipart?: boolean;
}

/** Defines an endpoint, keeping its exact schema types for the server and the client. */
export function endpoint<
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Answer extends z.ZodType | null | BytesAnswer = null,
>(definition: Endpoint<Query, Body, Answer>): Endpoint<Query, Body, Answer> {
  if (!definition.path.startsWith('/')) throw new Error(`endpoint path ${definition.path}`);
  if (definition.multipart && definition.body) {
    throw new Error(`endpoint ${definition.path}: a multipart body has no schema`);
  }
  if (definition.cookieAuth && definition.method !== 'GET') {
    throw new Error(`endpoint ${definition.path}: only a GET is signed in by the cookie`);
  }
  return definition;
}

/** The schema of a part of `E` (`query`, `body`, `answer`), or never when it has none. */
type PartOf<E extends Endpoint, K extends 'query' | 'body' | 'answer'> = NonNullable<E[K]>;
type Parsed<S> = [S] extends [never] ? undefined : S extends z.ZodType ? z.output<S> : undefined;
type Sent<S> = [S] extends [never] ? undefined : S extends z.ZodType ? z.input<S> : undefined;

/** What a client sends as the query of `E` (before the server's parsing and defaults). */
export type QueryIn<E extends Endpoint> = Sent<PartOf<E, 'query'>>;
/** What a client sends as the body of `E`. */
export type BodyIn<E extends Endpoint> = Sent<PartOf<E, 'body'>>;
/** The query as the handler receives it, parsed. */
export type QueryOf<E extends Endpoint> = Parsed<PartOf<E, 'query'>>;
/** The body as the handler receives it, parsed. */
export type BodyOf<E extends Endpoint> = Parsed<PartOf<E, 'body'>>;
/** The envelope's `data` of an answer of `E`. */
export type AnswerOf<E extends Endpoint> = Parsed<PartOf<E, 'answer'>>;
