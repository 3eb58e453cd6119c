import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { userEndpoints as E } from '@vpp/shared/users/endpoints';
import { USER_MESSAGES, type UserBody } from '@vpp/shared/users/schemas';
import { accountQueryOptions } from '../../lib/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { call, isNotFound } from '../../lib/request.ts';

export const usersKeys = {
  all: ['users'] as const,
  list: (page: { limit: number; offset: number }) => ['users', 'list', page] as const,
  one: (id: number) => ['users', 'one', id] as const,
  permissions: ['users', 'available-permissions'] as const,
};

export const usersQueryOptions = (page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: usersKeys.list(page),
    queryFn: async () => (await call(E.list, { query: page }, { errorToast: USER_MESSAGES.listFailed })).data,
    placeholderData: keepPreviousData,
  });
export const useUsers = (page: { limit: number; offset: number }) => useQuery(usersQueryOptions(page));

export const userQueryOptions = (id: number) =>
  queryOptions({
    queryKey: usersKeys.one(id),
    queryFn: async () => (await call(E.get, { params: { id } }, { errorToast: USER_MESSAGES.userFailed, notFoundInPage: true })).data,
  });
export const useUser = (id: number) => useQuery({ ...userQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
/** The page's words for a user who is not there, or not in the caller's organisation. */
export const USER_NOT_FOUND = 'This user could not be found. They may have been removed, or they are not in your organisation.';
/** No such user: the server said so, or the address names none (not a number). */
export const userMissing = (id: number, q: { error: unknown }) => !(Number.isInteger(id) && id > 0) || isNotFound(q.error);

export const availablePermissionsQueryOptions = queryOptions({
  queryKey: usersKeys.permissions,
  queryFn: async () => (await call(E.availablePermissions, {}, { errorToast: USER_MESSAGES.permissionsFailed })).data.permissions,
  staleTime: 5 * 60_000,
});
export const useAvailablePermissions = () => useQuery(availablePermissionsQueryOptions);

/** Creates a user; the server's refusal is shown by the form, not as a toast. */
export function useCreateUser() {
  return useMutation({
    mutationFn: async (body: UserBody) => (await call(E.create, { body }, { quiet: true })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

/** Updates a user; after editing one's own record the account is fetched again (spec 1 §4). */
export function useUpdateUser(id: number) {
  return useMutation({
    mutationFn: async (body: UserBody) => (await call(E.update, { params: { id }, body }, { quiet: true })).data,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
      if (queryClient.getQueryData(accountQueryOptions.queryKey)?.id === id) await queryClient.invalidateQueries({ queryKey: accountQueryOptions.queryKey });
    },
  });
}
