// The RERT area as other areas see it.

export { rertRoutes } from './routes.tsx';
