import type { App } from 'antd';

type Feedback = ReturnType<typeof App.useApp>;

/**
 * Toasts, confirms and notifications for code outside React (the API client, the event stream).
 * The drive binds the themed instances of antd's <App>; before that (on the sign-in page, which
 * carries no antd) antd's static ones serve, fetched when first needed.
 */
let bound: Feedback | null = null;

export function bindFeedback(feedback: Feedback | null): void {
  bound = feedback;
}

const statics = {
  message: async () => (await import('antd/es/message')).default,
  modal: async () => (await import('antd/es/modal')).default,
  notification: async () => (await import('antd/es/notification')).default,
};

/** One of antd's static feedback APIs whose every call waits for its code. */
function later<K extends keyof Feedback>(part: K): Feedback[K] {
  return new Proxy(
    {},
    {
      get:
        (_, method: string) =>
        (...args: unknown[]) =>
          void statics[part]().then((api) =>
            (api as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...args),
          ),
    },
  ) as Feedback[K];
}

const unbound: Feedback = {
  message: later('message'),
  modal: later('modal'),
  notification: later('notification'),
};

export function feedback(): Feedback {
  return bound ?? unbound;
}
