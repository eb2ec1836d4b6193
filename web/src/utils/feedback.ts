/**
 * Toasts and dialogs reachable from plain modules (the request wrapper, the router).
 * The app installs antd's context-aware instances from <App>; tests install spies.
 */
import { Modal, message, notification } from 'antd';

export interface ConfirmOptions {
  title: string;
  content: string;
  okText: string;
  cancelText?: string;
  onOk?: () => void;
  onCancel?: () => void;
}

export interface Feedback {
  success(text: string): void;
  error(text: string): void;
  warning(text: string): void;
  notifyError(title: string, description: string): void;
  confirm(options: ConfirmOptions): void;
}

const staticFeedback: Feedback = {
  success: (text) => void message.success(text),
  error: (text) => void message.error(text),
  warning: (text) => void message.warning(text),
  notifyError: (title, description) => notification.error({ title, description }),
  confirm: (o) =>
    void Modal.confirm({
      title: o.title,
      content: o.content,
      okText: o.okText,
      cancelText: o.cancelText,
      onOk: o.onOk,
      onCancel: o.onCancel,
    }),
};

let current: Feedback = staticFeedback;

export function setFeedback(next: Feedback | null): void {
  current = next ?? staticFeedback;
}

export const feedback: Feedback = {
  success: (text) => current.success(text),
  error: (text) => current.error(text),
  warning: (text) => current.warning(text),
  notifyError: (title, description) => current.notifyError(title, description),
  confirm: (options) => current.confirm(options),
};
