// The toasts' container, loaded after the first paint (issue 30): toasts shown before it mounts wait
// in the store (lib/toasts.ts) and appear when it does. Its own module, so that the container and its
// transitions leave the login page's chunk while the store stays there.
export { Notifications } from '@mantine/notifications';
