import { QueryClient } from '@tanstack/react-query';
import { session } from './session.ts';

/** The one query cache; emptied whenever the session is reset. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
session.onReset(() => queryClient.clear());
