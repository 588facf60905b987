import {
  ERROR_TOAST_THROTTLE_MS,
  ErrorCode,
  REQUEST_TIMEOUT_MS,
  TOKEN_HEADER,
  type Envelope,
} from '@nimbus/contract';
import { feedback } from '../lib/feedback';
import i18n, { translateKey } from '../i18n';
import { useAppStore } from '../stores/app';
import { useSessionStore } from '../stores/session';
import { describeFailure } from './error-text';
import { toQueryString, type QueryParams } from './query-string';

export const API_BASE = '/api';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Query parameters; list values become repeated keys. */
  params?: QueryParams;
  /** JSON-serialisable body, or FormData / URLSearchParams sent as is. */
  body?: unknown;
  /** No toasts at all: the caller shows the outcome itself. Failures still reject. */
  silent?: boolean;
  /** Set to false to leave an expired session (code 5) to the caller instead of prompting. */
  handleExpired?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type ApiErrorKind = 'business' | 'transport' | 'timeout' | 'aborted';

/** A rejected call: a non-zero envelope code, or no envelope at all. */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  readonly kind: ApiErrorKind;
  readonly envelope: Envelope | undefined;

  constructor(
    kind: ApiErrorKind,
    message: string,
    code: number,
    status: number,
    envelope?: Envelope,
  ) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = code;
    this.status = status;
    this.envelope = envelope;
  }
}

/** Code used for errors that carry no envelope. */
export const TRANSPORT_ERROR_CODE = -1000;

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'number'
  );
}

/** The headers every API request carries (session, language, share), for requests made by hand. */
export const apiHeaders = (): Headers => requestHeaders(false);

function requestHeaders(isJsonBody: boolean): Headers {
  const { token, username, shareToken, shareId } = useSessionStore.getState();
  const headers = new Headers({ Accept: 'application/json', lang: useAppStore.getState().lang });
  if (isJsonBody) headers.set('Content-Type', 'application/json');
  if (token) headers.set(TOKEN_HEADER, token);
  // Header values must be Latin-1; usernames are ASCII by contract but be defensive.
  if (username)
    headers.set(
      'name',
      encodeURIComponent(username) === username ? username : encodeURIComponent(username),
    );
  if (shareToken) headers.set('share-token', shareToken);
  if (shareId) headers.set('shareId', shareId);
  return headers;
}

let lastTransportToastAt = 0;

function toastTransportError(status: number): void {
  const now = Date.now();
  // spec §8: transport errors toast at most once per 3 s
  if (now - lastTransportToastAt < ERROR_TOAST_THROTTLE_MS) return;
  lastTransportToastAt = now;
  const key = status === 403 ? 'common:request.refused' : 'common:request.serverError';
  void feedback().message.error({ content: i18n.t(key), duration: 5 });
}

let expiredPromptOpen = false;

function isOnLoginPage(): boolean {
  return window.location.pathname.startsWith('/login');
}

/** spec §8, code 5: after 200 ms, ask to log in again (with a token) or reset and reload. */
function handleSessionExpired(): void {
  window.setTimeout(() => {
    const { token, resetToken } = useSessionStore.getState();
    if (!token) {
      resetToken();
      if (!isOnLoginPage()) window.location.reload();
      return;
    }
    if (expiredPromptOpen) return;
    expiredPromptOpen = true;
    feedback().modal.confirm({
      title: i18n.t('common:request.confirmLogout'),
      content: i18n.t('common:request.loginExpired'),
      okText: i18n.t('common:request.reLogin'),
      cancelText: i18n.t('common:actions.cancel'),
      onOk: () => {
        useSessionStore.getState().resetToken();
        window.location.reload();
      },
      afterClose: () => {
        expiredPromptOpen = false;
      },
    });
  }, 200);
}

/** The text for a failed envelope, in the user's language (see describeFailure). */
export function errorText(envelope: Pick<Envelope, 'code' | 'message'>): string {
  return describeFailure(envelope, (key) => (i18n.exists(key) ? translateKey(key) : undefined));
}

/**
 * Calls the API and resolves with the envelope when its code is 0 (spec §7, §8).
 * Every other outcome rejects with an ApiError after the toast the spec asks for.
 */
export async function request<T = unknown>(
  path: string,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  const { method = 'GET', params, body, silent = false, handleExpired = true } = options;
  const isRawBody =
    body instanceof FormData || body instanceof URLSearchParams || body instanceof Blob;
  const isJsonBody = body !== undefined && !isRawBody;

  const controller = new AbortController();
  let timedOut = false;
  const timer = window.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(`${API_BASE}${path}${toQueryString(params)}`, {
      method,
      headers: requestHeaders(isJsonBody),
      body: isJsonBody ? JSON.stringify(body) : (body as BodyInit | undefined),
      signal: controller.signal,
      credentials: 'same-origin',
    });
    payload = await response.json().catch(() => undefined);
  } catch (error) {
    if (options.signal?.aborted && !timedOut) {
      throw new ApiError('aborted', 'aborted', TRANSPORT_ERROR_CODE, 0);
    }
    if (!silent) toastTransportError(0);
    throw new ApiError(timedOut ? 'timeout' : 'transport', String(error), TRANSPORT_ERROR_CODE, 0);
  } finally {
    window.clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }

  const refreshed = response.headers.get(TOKEN_HEADER);
  if (
    refreshed &&
    refreshed !== useSessionStore.getState().token &&
    useSessionStore.getState().token
  ) {
    useSessionStore.getState().setToken(refreshed);
  }

  if (!isEnvelope(payload)) {
    if (!silent) toastTransportError(response.status);
    throw new ApiError(
      'transport',
      `HTTP ${response.status}`,
      TRANSPORT_ERROR_CODE,
      response.status,
    );
  }

  const envelope = payload as Envelope<T>;
  switch (envelope.code) {
    case ErrorCode.SUCCESS:
      // a success's message is the server's English wording: the web app says it itself, in the
      // user's language, where the user needs to hear it
      return envelope;
    case ErrorCode.WARNING:
      if (!silent) {
        void feedback().message.warning({
          content: envelope.message || i18n.t('common:request.distracted'),
          duration: 2,
        });
      }
      break;
    case ErrorCode.IGNORE:
      break;
    case ErrorCode.NOT_LOGGED_IN:
      if (handleExpired) handleSessionExpired();
      break;
    default:
      if (!silent) void feedback().message.error({ content: errorText(envelope), duration: 3 });
  }
  throw new ApiError('business', errorText(envelope), envelope.code, response.status, envelope);
}

/** Resolves with `data` only. */
export async function requestData<T>(path: string, options?: RequestOptions): Promise<T> {
  return (await request<T>(path, options)).data as T;
}

export const api = {
  get: <T>(path: string, params?: QueryParams, options?: RequestOptions) =>
    requestData<T>(path, { ...options, method: 'GET', params }),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    requestData<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    requestData<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, params?: QueryParams, options?: RequestOptions) =>
    requestData<T>(path, { ...options, method: 'DELETE', params }),
};

/** A paged list: the rows and the total `count`. */
export interface Page<T> {
  items: T[];
  total: number;
}

export async function requestPage<T>(
  path: string,
  params?: QueryParams,
  options?: RequestOptions,
): Promise<Page<T>> {
  const envelope = await request<T[]>(path, { ...options, method: 'GET', params });
  const items = Array.isArray(envelope.data) ? envelope.data : [];
  return { items, total: envelope.count ?? items.length };
}

/**
 * POST a form, reporting the upload's progress in percent (fetch reports none), and resolve
 * with the envelope's `data`; a non-zero code rejects with its message.
 */
export function postForm<T>(
  path: string,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${path}`);
    apiHeaders().forEach((value, key) => xhr.setRequestHeader(key, value));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError('transport', 'network error', TRANSPORT_ERROR_CODE, 0));
    xhr.onload = () => {
      try {
        resolve(xhrEnvelope<T>(xhr).data as T);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    xhr.send(form);
  });
}

/**
 * The envelope an XMLHttpRequest got back, read as `request` reads a response: no envelope is
 * a transport error, a non-zero code a business error (both thrown as ApiError).
 */
export function xhrEnvelope<T>(xhr: XMLHttpRequest): Envelope<T> {
  let payload: unknown;
  try {
    payload = JSON.parse(xhr.responseText);
  } catch {
    payload = undefined;
  }
  if (!isEnvelope(payload))
    throw new ApiError('transport', `HTTP ${xhr.status}`, TRANSPORT_ERROR_CODE, xhr.status);
  if (payload.code !== ErrorCode.SUCCESS)
    throw new ApiError('business', errorText(payload), payload.code, xhr.status, payload);
  return payload as Envelope<T>;
}
