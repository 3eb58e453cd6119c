import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { APP_TITLE } from '@vpp/shared/constants';
import { MESSAGES } from '@vpp/shared/messages';
import type { PermissionRequirement } from '@vpp/shared/permissions/registry';
import { type ReactNode, useEffect } from 'react';
import { Link } from 'react-router';
import { usePermission } from '../lib/permission-gate.tsx';

export interface Crumb {
  label: string;
  to?: string;
}

/** Title 'page | app title'; breadcrumb, header and search area; refuses without its permission. */
export function PageLayout(props: {
  title: string;
  breadcrumb?: Crumb[];
  actions?: ReactNode;
  search?: ReactNode;
  permission?: PermissionRequirement;
  children: ReactNode;
}) {
  const allowed = usePermission(props.permission);
  useEffect(() => {
    document.title = `${props.title} | ${APP_TITLE}`;
  }, [props.title]);
  return (
    <Stack gap="md">
      {props.breadcrumb && (
        <Breadcrumbs>
          {props.breadcrumb.map((c) =>
            c.to ? (
              <Anchor component={Link} to={c.to} key={c.label} size="sm">
                {c.label}
              </Anchor>
            ) : (
              <Text key={c.label} size="sm">
                {c.label}
              </Text>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {props.title}
        </Title>
        {allowed && props.actions}
      </Group>
      {allowed && props.search}
      {allowed ? props.children : <Text c="dimmed">{MESSAGES.notAuthorized}</Text>}
    </Stack>
  );
}
