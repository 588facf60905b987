import {
  fillPath,
  type AnswerOf,
  type BodyIn,
  type Endpoint,
  type ParamsIn,
  type QueryIn,
} from '@nimbus/contract';
import { API_BASE, postForm, request, requestData, type Page, type RequestOptions } from './client';
import { toQueryString, type QueryParams } from './query-string';

/**
 * What a call of `E` sends: its path's parameters, its query and its body, as the contract's
 * definition takes them.
 */
export interface EndpointInput<E extends Endpoint> {
  params?: ParamsIn<E>;
  query?: QueryIn<E>;
  body?: BodyIn<E>;
}

type CallOptions = Omit<RequestOptions, 'method' | 'params' | 'body'>;

/** The path of `definition` under `/api`, each of its parameters filled in and encoded. */
const pathOf = <E extends Endpoint>(definition: E, params: ParamsIn<E> | undefined): string =>
  fillPath(definition.path, params as Partial<Record<string, string | number>> | undefined);

const requestOf = <E extends Endpoint>(
  definition: E,
  input: EndpointInput<E>,
  options: CallOptions | undefined,
): RequestOptions => ({
  ...options,
  method: definition.method,
  params: input.query as QueryParams | undefined,
  body: input.body,
});

/**
 * Calls a contract endpoint: the method, the path, what it takes and the `data` it answers all
 * come from its definition, so a call cannot name a path or a field the server does not have.
 */
export function callEndpoint<E extends Endpoint>(
  definition: E,
  input: EndpointInput<E> = {},
  options?: CallOptions,
): Promise<AnswerOf<E>> {
  return requestData<AnswerOf<E>>(
    pathOf(definition, input.params),
    requestOf(definition, input, options),
  );
}

/** The whole envelope of a call: its `data` and what else it carries (`props`, `count`). */
export function callEndpointEnvelope<E extends Endpoint>(
  definition: E,
  input: EndpointInput<E> = {},
  options?: CallOptions,
) {
  return request<AnswerOf<E>>(
    pathOf(definition, input.params),
    requestOf(definition, input, options),
  );
}

/** A page of a listing endpoint: its rows and the total `count` its envelope carries. */
export async function callEndpointPage<E extends Endpoint>(
  definition: E,
  input: EndpointInput<E> = {},
  options?: CallOptions,
): Promise<Page<AnswerOf<E> extends readonly (infer Row)[] ? Row : never>> {
  const envelope = await callEndpointEnvelope(definition, input, options);
  const items = Array.isArray(envelope.data) ? envelope.data : [];
  return { items, total: envelope.count ?? items.length };
}

/**
 * The address of a GET the browser fetches itself (a download, an image): the session cookie
 * signs it in, so only an endpoint whose definition allows the cookie has one.
 */
export function endpointUrl<E extends Endpoint>(
  definition: E,
  query: QueryIn<E>,
  params?: ParamsIn<E>,
): string {
  if (!definition.cookieAuth) throw new Error(`${definition.path} is not fetched by its address`);
  return endpointAddress(definition, query, params);
}

/** Sends the multipart form of an endpoint that takes one (an upload); `onProgress` in percent. */
export function callEndpointForm<E extends Endpoint>(
  definition: E,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<AnswerOf<E>> {
  if (!definition.multipart) throw new Error(`${definition.path} takes no form`);
  return postForm<AnswerOf<E>>(pathOf(definition, undefined), form, onProgress);
}

/**
 * The address of an endpoint for a widget that sends its requests itself (with the API's
 * headers): the editor's image uploads.
 */
export function endpointAddress<E extends Endpoint>(
  definition: E,
  query?: QueryIn<E>,
  params?: ParamsIn<E>,
): string {
  const path = pathOf(definition, params);
  return `${API_BASE}${path}${toQueryString(query as QueryParams | undefined)}`;
}
