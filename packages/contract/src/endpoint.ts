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
 * An answer sent as it is, not inside an envelope: for a caller that is not the drive's own
 * client (the OnlyOffice document server reads `{ "error": 0 }` from its callback).
 */
export interface BareAnswer<S extends z.ZodType = z.ZodType> {
  bare: S;
}

/** The answer `schema` sent without an envelope (see BareAnswer). */
export function bareAnswer<S extends z.ZodType>(schema: S): BareAnswer<S> {
  return { bare: schema };
}

/**
 * One endpoint of the API, the single place its shape is written: the server registers its
 * route from it (schemas, access), the web app calls it through a client typed by it, and the
 * OpenAPI document at /api/docs is generated from the routes so registered.
 */
export interface Endpoint<
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Answer extends z.ZodType | null | BytesAnswer | BareAnswer =
    z.ZodType | null | BytesAnswer | BareAnswer,
  Params extends PathParams | undefined = PathParams | undefined,
> {
  method: EndpointMethod;
  /**
   * The path under `/api`. A segment `:name` is a path parameter, and so is a trailing `*`
   * (the rest of the path): `params` names each of them.
   */
  path: string;
  /** The path's parameters, one key per `:name` (and `*` for a trailing `*`). */
  params?: Params;
  query?: Query;
  body?: Body;
  /**
   * The shape of the envelope's `data`; `null` for an answer that only confirms; `'bytes'` for
   * one that sends bytes instead of an envelope; `bareAnswer(schema)` for JSON sent without one.
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
  /**
   * A POST the browser submits itself as a form (a download of a long selection, which carries
   * no token header): the token field of the body signs it in.
   */
  formAuth?: boolean;
  /** The body is a multipart form the handler reads part by part (so it has no schema). */
  multipart?: boolean;
}

/** The schema of a path's parameters: an object with one key per parameter. */
export type PathParams = z.ZodObject;

/** The names of a path's parameters: each `:name` segment, and `*` for a trailing `*`. */
export function pathParamNames(path: string): string[] {
  const segments = path.split('/');
  return segments.flatMap((segment, at) => {
    if (segment.startsWith(':')) return [segment.slice(1)];
    if (segment === '*' && at === segments.length - 1) return ['*'];
    return [];
  });
}

/**
 * The path of an endpoint with its parameters filled in: each `:name` segment by its value
 * encoded as one segment; a trailing `*` by the rest of the path, each of its segments encoded.
 */
export function fillPath(
  path: string,
  params: Partial<Record<string, string | number>> = {},
): string {
  const segments = path.split('/');
  return segments
    .map((segment, at) => {
      const name = segment.startsWith(':')
        ? segment.slice(1)
        : segment === '*' && at === segments.length - 1
          ? '*'
          : null;
      if (name === null) return segment;
      const value = params[name];
      if (value === undefined || value === null) {
        throw new Error(`${path}: the path parameter ${name} is missing`);
      }
      const text = String(value);
      if (name === '*')
        return text.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
      if (text === '') throw new Error(`${path}: the path parameter ${name} is empty`);
      return encodeURIComponent(text);
    })
    .join('/');
}

/** Defines an endpoint, keeping its exact schema types for the server and the client. */
export function endpoint<
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Answer extends z.ZodType | null | BytesAnswer | BareAnswer = null,
  Params extends PathParams | undefined = undefined,
>(definition: Endpoint<Query, Body, Answer, Params>): Endpoint<Query, Body, Answer, Params> {
  if (!definition.path.startsWith('/')) throw new Error(`endpoint path ${definition.path}`);
  const named = pathParamNames(definition.path).sort();
  const keys = Object.keys(definition.params?.shape ?? {}).sort();
  if (named.join('/') !== keys.join('/')) {
    throw new Error(
      `endpoint ${definition.path}: the path names [${named.join(', ')}], its params [${keys.join(', ')}]`,
    );
  }
  if (definition.multipart && definition.body) {
    throw new Error(`endpoint ${definition.path}: a multipart body has no schema`);
  }
  if (definition.cookieAuth && definition.method !== 'GET') {
    throw new Error(`endpoint ${definition.path}: only a GET is signed in by the cookie`);
  }
  if (definition.formAuth && (definition.method !== 'POST' || !definition.body)) {
    throw new Error(`endpoint ${definition.path}: only a POST's form body carries a token`);
  }
  return definition;
}

/** The schema of a part of `E` (`params`, `query`, `body`, `answer`), or never when it has none. */
type PartOf<E extends Endpoint, K extends 'params' | 'query' | 'body' | 'answer'> = NonNullable<
  E[K]
>;
type Parsed<S> = [S] extends [never] ? undefined : S extends z.ZodType ? z.output<S> : undefined;
type Sent<S> = [S] extends [never] ? undefined : S extends z.ZodType ? z.input<S> : undefined;

/** What a client fills the path of `E` with (each `:name`, and `*`). */
export type ParamsIn<E extends Endpoint> = Sent<PartOf<E, 'params'>>;
/** The path's parameters as the handler receives them, parsed. */
export type ParamsOf<E extends Endpoint> = Parsed<PartOf<E, 'params'>>;
/** What a client sends as the query of `E` (before the server's parsing and defaults). */
export type QueryIn<E extends Endpoint> = Sent<PartOf<E, 'query'>>;
/** What a client sends as the body of `E`. */
export type BodyIn<E extends Endpoint> = Sent<PartOf<E, 'body'>>;
/** The query as the handler receives it, parsed. */
export type QueryOf<E extends Endpoint> = Parsed<PartOf<E, 'query'>>;
/** The body as the handler receives it, parsed. */
export type BodyOf<E extends Endpoint> = Parsed<PartOf<E, 'body'>>;
/** The envelope's `data` of an answer of `E` (or, a bare answer, the whole answer). */
export type AnswerOf<E extends Endpoint> =
  PartOf<E, 'answer'> extends BareAnswer<infer S> ? z.output<S> : Parsed<PartOf<E, 'answer'>>;
