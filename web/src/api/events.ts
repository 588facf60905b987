import { EVENT_RECONNECT_MS, eventsApi, TRASH_EXPIRY_OPERATION } from '@nimbus/contract';
import { feedback } from '../lib/feedback';
import i18n, { translateKey } from '../i18n';
import { endpointUrl } from './endpoints';

/** A business message of the live event stream (API notes §2). */
export interface LiveMessage<B = unknown> {
  username?: string;
  url: string;
  body: B;
  space?: number;
  /** On `deleteFile`, the item that left the folder its body names. */
  fileId?: string;
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

/** Results of one bulk operation arrive back to back; a burst shares one notification. */
const BURST_MS = 2000;
/** A notification in a burst is redrawn at most this often. */
const BURST_REDRAW_MS = 250;

interface Burst {
  id: string;
  key: string;
  count: number;
  title: string;
  success: boolean;
  lastMessage: string;
  expires: number;
  redraw: number | null;
}

let burst: Burst | null = null;

/**
 * spec §4: an operationFile message shows a success or failure notification. One per item
 * would bury the screen under a move of thousands: more results of the same operation and
 * outcome within 2 s update the first notification with their count.
 */
function notifyOperation(body: OperationFileBody, success: boolean, title: string): void {
  const id = `${body.operation ?? ''}|${success}`;
  const now = Date.now();
  const show = (b: Burst) => {
    b.redraw = null;
    const api = feedback().notification;
    (b.success ? api.success : api.error)({
      key: b.key,
      title: b.title,
      description:
        b.count === 1
          ? b.success
            ? i18n.t('common:events.fromTo', { from: body.from ?? '', to: body.to ?? '' })
            : b.lastMessage
          : i18n.t(b.success ? 'common:events.items' : 'common:events.itemsFailed', {
              count: b.count,
              formatted: b.count.toLocaleString(),
              msg: b.lastMessage,
            }),
    });
  };
  if (burst && burst.id === id && burst.expires > now) {
    const current = burst;
    current.count += 1;
    current.lastMessage = body.msg ?? '';
    current.expires = now + BURST_MS;
    current.redraw ??= window.setTimeout(() => show(current), BURST_REDRAW_MS);
    return;
  }
  burst = {
    id,
    key: `operation-${now}-${Math.random().toString(36).slice(2)}`,
    count: 1,
    title,
    success,
    lastMessage: body.msg ?? '',
    expires: now + BURST_MS,
    redraw: null,
  };
  show(burst);
}

/** Operations whose success this tab announces itself (with an Undo), until when. */
const quieted = new Map<string, number>();
const QUIET_MS = 10_000;

/**
 * The action this tab just ran shows its own message (with an Undo): the server's success
 * notice of the same operation would say it a second time. Failures are still notified.
 */
export function quietOperation(operation: string): void {
  quieted.set(operation, Date.now() + QUIET_MS);
}

function isQuieted(operation: string | undefined): boolean {
  const until = quieted.get(operation ?? '');
  return until !== undefined && until > Date.now();
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
    if (!success || !isQuieted(body.operation)) notifyOperation(body, success, title);
    if (!success) emitLiveMessage('fileOperationFault', message);
  } else if (type === 'operationTips') {
    const body = (message.body ?? {}) as OperationTipsBody;
    const operation = operationName(body.operation ?? '');
    if (body.success) {
      // old trash items gone by themselves: the trash view reloads, nobody asked just now
      if (!isQuieted(body.operation) && body.operation !== TRASH_EXPIRY_OPERATION) {
        feedback().notification.success({
          title: i18n.t('common:events.operationSucceeded', { operation }),
        });
      }
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
    const source = new EventSource(endpointUrl(eventsApi.stream, { username, uuid: this.uuid }), {
      withCredentials: true,
    });
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
