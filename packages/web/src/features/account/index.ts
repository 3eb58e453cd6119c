// The account area as other areas and the app see it. The account itself (useAccount) is in lib/account.ts: most areas read it.

export { accountRoutes } from './routes.tsx';
export { useSaveTimezone } from './save-timezone.ts';
