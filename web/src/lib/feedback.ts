import {
  type App,
  message as staticMessage,
  Modal,
  notification as staticNotification,
} from 'antd';

type Feedback = ReturnType<typeof App.useApp>;

/**
 * Toasts, confirms and notifications for code outside React (the API client, the event stream).
 * The app binds the themed instances of antd's <App>; before that the static ones serve.
 */
let bound: Feedback | null = null;

export function bindFeedback(feedback: Feedback | null): void {
  bound = feedback;
}

export function feedback(): Feedback {
  return (
    bound ?? {
      message: staticMessage,
      modal: Modal as unknown as Feedback['modal'],
      notification: staticNotification,
    }
  );
}
