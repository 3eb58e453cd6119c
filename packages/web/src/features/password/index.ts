// The password area as other areas see it.
export { passwordRoutes } from './routes.tsx';
