// The dispatches area as other areas see it: its New Dispatch modal (the VPP page opens it). What
// the other kinds of dispatch event (RERT) share with it lives in the event kernel, features/events.

export { NewDispatchModal } from './new-dispatch-modal.tsx';
export { dispatchesRoutes } from './routes.tsx';
