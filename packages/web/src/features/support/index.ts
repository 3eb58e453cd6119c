export { supportRoutes } from './routes.tsx';
