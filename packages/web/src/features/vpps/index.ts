// The vpps area as other areas see it.
export { vppsRoutes } from './routes.tsx';
