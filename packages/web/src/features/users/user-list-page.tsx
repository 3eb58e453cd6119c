import { Anchor, Badge, Button, Text, Tooltip } from '@mantine/core';
import { DEFAULT_PAGE_SIZE } from '@vpp/shared/constants';
import { ADMINISTRATOR, normalizePermission, PERMISSIONS } from '@vpp/shared/permissions/registry';
import { type OrgUser, USER_MESSAGES } from '@vpp/shared/users/schemas';
import { Link } from 'react-router';
import { type Column, DataTable, usePaging } from '../../components/data-table.tsx';
import { PageLayout } from '../../components/page-layout.tsx';
import { useUsers } from './api.ts';

/** A permission's display name (its name when the registry does not know it). */
const permissionLabel = (name: string) => PERMISSIONS.find((p) => normalizePermission(p.name) === normalizePermission(name))?.displayName ?? name;

export const USERS_PERMISSION = 'fleet.myReposit.users';
export const USERS_BREADCRUMB = [{ label: 'My Reposit' }, { label: 'Users', to: `/my-reposit/users?limit=${DEFAULT_PAGE_SIZE}&offset=0` }];

const columns: Column<OrgUser>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (u) => (
      <Anchor component={Link} to={`/my-reposit/users/${u.id}`}>
        {u.givenName} {u.surname}
      </Anchor>
    ),
  },
  { key: 'email', header: 'Email', render: (u) => u.email },
  {
    key: 'permissions',
    header: 'Permissions',
    render: (u) =>
      u.permissions.some((p) => normalizePermission(p) === ADMINISTRATOR) ? (
        <Badge variant="light">Administrator</Badge>
      ) : (
        // The count says what it counts, and names them on hover or focus.
        <Tooltip label={u.permissions.map(permissionLabel).join(', ') || 'None'} multiline maw={360} withArrow>
          <Text size="sm" tabIndex={0} w="fit-content">
            {u.permissions.length} {u.permissions.length === 1 ? 'permission' : 'permissions'}
          </Text>
        </Tooltip>
      ),
  },
];

/** /my-reposit/users: the organisation's users, a page at a time. */
export function UserListPage() {
  const { limit, offset, setPage } = usePaging();
  const users = useUsers({ limit, offset });

  return (
    <PageLayout
      title="Users"
      breadcrumb={[USERS_BREADCRUMB[0], { label: 'Users' }]}
      permission={USERS_PERMISSION}
      actions={
        <Button component={Link} to="/my-reposit/users/new">
          Add User
        </Button>
      }
    >
      <DataTable
        label="Users"
        columns={columns}
        rows={users.data?.users}
        rowKey={(u) => u.id}
        total={users.data?.total ?? 0}
        limit={limit}
        offset={offset}
        onPage={setPage}
        empty={USER_MESSAGES.noUsers}
        loading={users.isLoading}
      />
    </PageLayout>
  );
}
