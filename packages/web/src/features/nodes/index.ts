// The nodes area as other areas see it.
export { nodesRoutes } from './routes.tsx';
