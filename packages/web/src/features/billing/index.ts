// The billing area as other areas see it.

export { billingRoutes } from './routes.tsx';
