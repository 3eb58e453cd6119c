// The users area as other areas see it.
export { usersRoutes } from './routes.tsx';
