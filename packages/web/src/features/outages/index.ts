// The grid outages area as other areas see it.

export { outagesRoutes } from './routes.tsx';
