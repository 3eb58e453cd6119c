// The toasts' container, loaded with the first toast (main.tsx, issue 30): toasts shown before it
// mounts wait in the store (lib/toasts.ts) and appear when it does. A module of its own, so that the
// container and its transitions leave the login page while the store stays there.
export { Notifications } from '@mantine/notifications';
