import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const usersRoutes: AreaRoute[] = [
  {
    path: '/my-reposit/users',
    page: lazyPage(
      () => import('./user-list-page.tsx'),
      (m) => m.UserListPage,
    ),
    nav: { group: 'My Reposit', label: 'Users', search: 'limit=10&offset=0', permission: 'fleet.myReposit.users', order: 1 },
  },
  {
    path: '/my-reposit/users/new',
    page: lazyPage(
      () => import('./user-create-page.tsx'),
      (m) => m.UserCreatePage,
    ),
  },
  {
    path: '/my-reposit/users/:id',
    page: lazyPage(
      () => import('./user-detail-page.tsx'),
      (m) => m.UserDetailPage,
    ),
  },
  {
    path: '/my-reposit/users/:id/edit',
    page: lazyPage(
      () => import('./user-edit-page.tsx'),
      (m) => m.UserEditPage,
    ),
  },
];
