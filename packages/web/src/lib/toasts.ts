import { notifications } from '@mantine/notifications';

type Kind = 'success' | 'info' | 'warning' | 'error';
const colors: Record<Kind, string> = { success: 'green', info: 'blue', warning: 'yellow', error: 'red' };

/** A toast, bottom-right, of one of the four kinds of spec 1 §1. */
export function toast(kind: Kind, title: string, message?: string) {
  notifications.show({ color: colors[kind], title, message: message ?? '', autoClose: kind === 'error' ? 8000 : 5000 });
}
