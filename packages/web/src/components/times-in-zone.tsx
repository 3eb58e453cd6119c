import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';

/** The line under a list of times: they are in the account's zone, which the settings change. */
export function TimesInZone({ zone }: { zone: string }) {
  return (
    <Text size="sm" c="dimmed">
      All times are in{' '}
      <Anchor component={Link} to="/user/settings" size="sm" title="Change your time zone in settings">
        {zone}
      </Anchor>
    </Text>
  );
}
