export { kitDesignerRoutes } from './routes.tsx';
