// The auth area as the app sees it: the session's start and end, and the login panel (it has no routes of its own).
export { bootSession, logout } from './api.ts';
export { LoginPanel } from './login-page.tsx';
