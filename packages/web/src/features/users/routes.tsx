import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const usersRoutes: AreaRoute[] = [
  {
    path: '/my-reposit/users',
    permission: 'fleet.myReposit.users',
    page: lazyPage(
      () => import('./user-list-page.tsx'),
      (m) => m.UserListPage,
    ),
    nav: { group: 'My Reposit', label: 'Users', search: 'limit=10&offset=0', permission: 'fleet.myReposit.users', order: 1 },
  },
  {
    path: '/my-reposit/users/new',
    permission: 'fleet.myReposit.users',
    title: 'New User',
    page: lazyPage(
      () => import('./user-create-page.tsx'),
      (m) => m.UserCreatePage,
    ),
  },
  {
    path: '/my-reposit/users/:id',
    permission: 'fleet.myReposit.users',
    title: 'User',
    page: lazyPage(
      () => import('./user-detail-page.tsx'),
      (m) => m.UserDetailPage,
    ),
  },
  {
    path: '/my-reposit/users/:id/edit',
    permission: 'fleet.myReposit.users',
    title: 'Edit User',
    page: lazyPage(
      () => import('./user-edit-page.tsx'),
      (m) => m.UserEditPage,
    ),
  },
];
