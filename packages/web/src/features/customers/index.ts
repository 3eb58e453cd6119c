// The customers area as other areas see it.

export { customersRoutes } from './routes.tsx';
