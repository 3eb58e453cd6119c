import { notifications, notificationsStore } from '@mantine/notifications';

type Kind = 'success' | 'info' | 'warning' | 'error';
const colors: Record<Kind, string> = { success: 'green', info: 'blue', warning: 'yellow', error: 'red' };

/**
 * A toast, bottom-right, of one of the four kinds of spec 1 §1. The same toast again (the same
 * words, of the same action) is not stacked: the one on screen starts its time over. `group` names
 * the action (a form's save), so that its toasts can be cleared when it is tried again.
 */
export function toast(kind: Kind, title: string, message?: string, group = '') {
  const id = `${group}|${kind}|${title}|${message ?? ''}`;
  const shown = notificationsStore.getState();
  const toastProps = { id, color: colors[kind], title, message: message ?? '', autoClose: kind === 'error' ? 8000 : 5000 };
  if ([...shown.notifications, ...shown.queue].some((n) => n.id === id)) notifications.update(toastProps);
  else notifications.show(toastProps);
}

/** Clears the toasts an action left (its old error, when it is submitted again). */
export function clearToasts(group: string) {
  const prefix = `${group}|`;
  const shown = notificationsStore.getState();
  for (const n of [...shown.notifications, ...shown.queue]) if (n.id?.startsWith(prefix)) notifications.hide(n.id);
}
