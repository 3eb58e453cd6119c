// The notifications area as other areas and the app see it.
export { NotificationBell } from './notification-bell.tsx';
export { notificationsRoutes } from './routes.tsx';
