import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { notificationEndpoints as E } from '@vpp/shared/notifications/endpoints';
import { NOTIFICATION_FIRST_FETCH_MS, NOTIFICATION_MESSAGES, NOTIFICATION_POLL_MS } from '@vpp/shared/notifications/schemas';
import { useEffect, useState } from 'react';
import { queryClient } from '../../lib/query-client.ts';
import { call, isNotFound } from '../../lib/request.ts';

export const notificationsKeys = {
  all: ['notifications'] as const,
  list: (page: { limit: number; offset: number }) => ['notifications', 'list', page] as const,
  one: (id: number) => ['notifications', 'one', id] as const,
};

export const notificationsQueryOptions = (page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: notificationsKeys.list(page),
    queryFn: async () => (await call(E.list, { query: page }, { errorToast: NOTIFICATION_MESSAGES.listFailed })).data,
    placeholderData: keepPreviousData,
  });

/** True once `ms` have passed since the component mounted. */
function useAfter(ms: number): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setReady(true), ms);
    return () => clearTimeout(t);
  }, [ms]);
  return ready;
}

/**
 * The notification list, polled as spec 1 §9 says: first 1 s after mount, then every 5 minutes,
 * and again whenever the page becomes visible.
 */
export function useNotifications(page: { limit: number; offset: number }) {
  const started = useAfter(NOTIFICATION_FIRST_FETCH_MS);
  return useQuery({ ...notificationsQueryOptions(page), enabled: started, refetchInterval: NOTIFICATION_POLL_MS, refetchOnWindowFocus: 'always' });
}

export const notificationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: notificationsKeys.one(id),
    queryFn: async () => (await call(E.get, { params: { id } }, { errorToast: NOTIFICATION_MESSAGES.oneFailed, notFoundInPage: true })).data,
  });
export const useNotification = (id: number) => useQuery({ ...notificationQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
/** The page's words for a notification that is not there, or not the caller's. */
export const NOTIFICATION_NOT_FOUND = 'This notification could not be found. It may have been removed, or it was sent to someone else.';
/** No such notification: the server said so, or the address names none (not a number). */
export const notificationMissing = (id: number, q: { error: unknown }) => !(Number.isInteger(id) && id > 0) || isNotFound(q.error);

const refresh = () => queryClient.invalidateQueries({ queryKey: notificationsKeys.all });

export function useMarkRead() {
  return useMutation({
    mutationFn: (id: number) => call(E.markRead, { params: { id } }, { errorToast: NOTIFICATION_MESSAGES.markReadFailed }),
    onSuccess: refresh,
  });
}

export function useMarkUnread() {
  return useMutation({
    mutationFn: (id: number) => call(E.markUnread, { params: { id } }, { errorToast: NOTIFICATION_MESSAGES.markUnreadFailed }),
    onSuccess: refresh,
  });
}

export function useMarkAllRead() {
  return useMutation({
    mutationFn: () => call(E.markAllRead, { body: { markRead: true } }, { errorToast: NOTIFICATION_MESSAGES.markAllFailed }),
    onSuccess: refresh,
  });
}
