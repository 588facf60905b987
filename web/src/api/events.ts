import { EVENT_RECONNECT_MS } from '@nimbus/contract';
import { feedback } from '../app/feedback';
import i18n, { translateKey } from '../i18n';
import { API_BASE } from './client';
import { toQueryString } from './query-string';

/** A business message of the live event stream (API notes §2). */
export interface LiveMessage<B = unknown> {
  username?: string;
  url: string;
  body: B;
  space?: number;
}

/** Types forwarded under their own name; every other type is a file-change message (spec §4). */
export const FORWARDED_TYPES = [
  'synced',
  'calculateFolderSizeProcessed',
  'taskProgress',
  'transcodeStatus',
  'uploaderChunkSize',
] as const;

export type LiveChannel =
  (typeof FORWARDED_TYPES)[number] | 'fileChange' | 'fileOperationFault' | 'taskCountChange';

type Listener = (message: LiveMessage) => void;

const listeners = new Map<LiveChannel, Set<Listener>>();

/** Subscribes to a channel; returns the unsubscribe function. */
export function onLiveMessage(channel: LiveChannel, listener: Listener): () => void {
  let set = listeners.get(channel);
  if (!set) {
    set = new Set();
    listeners.set(channel, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function emitLiveMessage(channel: LiveChannel, message: LiveMessage): void {
  for (const listener of listeners.get(channel) ?? []) {
    try {
      listener(message);
    } catch (error) {
      console.error(`Live message listener for "${channel}" failed`, error);
    }
  }
}

interface OperationFileBody {
  operation?: string;
  from?: string;
  to?: string;
  code?: number;
  msg?: string;
}

interface OperationTipsBody {
  operation?: string;
  success?: boolean;
  msg?: string;
}

/** The operation of a notification in the reader's language (`move` → "Move"). */
function operationName(operation: string): string {
  const key = `common:events.operations.${operation}`;
  return operation && i18n.exists(key) ? translateKey(key) : operation;
}

/** Routes one parsed message to its channel and shows the notifications spec §4 asks for. */
export function dispatchLiveMessage(message: LiveMessage): void {
  const type = message.url;
  if ((FORWARDED_TYPES as readonly string[]).includes(type)) {
    emitLiveMessage(type as LiveChannel, message);
    return;
  }
  // spec §7 "Received messages": the running-task list whose length is the count
  if (type === 'taskCountChange') {
    emitLiveMessage('taskCountChange', message);
    return;
  }
  if (type === 'operationFile') {
    const body = (message.body ?? {}) as OperationFileBody;
    const success = body.code === 0;
    const operation = operationName(body.operation ?? '');
    const title = i18n.t(
      success ? 'common:events.operationSucceeded' : 'common:events.operationFailed',
      { operation },
    );
    if (success) {
      feedback().notification.success({
        title,
        description: i18n.t('common:events.fromTo', { from: body.from ?? '', to: body.to ?? '' }),
      });
    } else {
      feedback().notification.error({ title, description: body.msg });
      emitLiveMessage('fileOperationFault', message);
    }
  } else if (type === 'operationTips') {
    const body = (message.body ?? {}) as OperationTipsBody;
    const operation = operationName(body.operation ?? '');
    if (body.success) {
      feedback().notification.success({
        title: i18n.t('common:events.operationSucceeded', { operation }),
      });
    } else {
      feedback().notification.error({
        title: i18n.t('common:events.operationFailed', { operation }),
        description: body.msg,
      });
    }
  }
  emitLiveMessage('fileChange', message);
}

function randomId(): string {
  if (
    typeof crypto !== 'undefined' &&
    typeof crypto.randomUUID === 'function' &&
    window.isSecureContext
  ) {
    return crypto.randomUUID();
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One EventSource per tab; reconnects 5 s after a permanent close while a username is known. */
class LiveEvents {
  private source: EventSource | null = null;
  private reconnectTimer: number | null = null;
  private username = '';
  private readonly uuid = randomId();

  connect(username: string): void {
    if (typeof EventSource === 'undefined') {
      console.error('This browser does not support server-sent events');
      return;
    }
    if (this.source && this.username === username && this.source.readyState !== EventSource.CLOSED)
      return;
    this.disconnect();
    this.username = username;
    const source = new EventSource(
      `${API_BASE}/events${toQueryString({ username, uuid: this.uuid })}`,
      {
        withCredentials: true,
      },
    );
    this.source = source;
    source.onmessage = (event: MessageEvent<string>) => {
      try {
        const message = JSON.parse(event.data) as LiveMessage;
        if (message && typeof message.url === 'string') dispatchLiveMessage(message);
      } catch (error) {
        console.error('Could not parse a live event', error);
      }
    };
    source.onerror = (error) => {
      if (source.readyState !== EventSource.CLOSED) return; // the browser retries by itself
      console.error('Live event stream closed', error);
      this.source = null;
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    this.clearReconnect();
    this.reconnectTimer = window.setTimeout(() => {
      this.reconnectTimer = null;
      if (this.username) this.connect(this.username);
      else console.error('Live events: no username to reconnect with');
    }, EVENT_RECONNECT_MS);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== null) window.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  disconnect(): void {
    this.clearReconnect();
    this.source?.close();
    this.source = null;
    this.username = '';
  }
}

export const liveEvents = new LiveEvents();
