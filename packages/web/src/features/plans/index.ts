// The plans area as other areas see it.

export { usePlans } from './api.ts';
export { formatIsoDate, planEditPath, planPath } from './plan-paths.ts';
export { plansRoutes } from './routes.tsx';
