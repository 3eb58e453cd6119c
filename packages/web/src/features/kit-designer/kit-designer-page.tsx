import { Alert, Button, Card, Center, Group, List, Loader, Stack, Text } from '@mantine/core';
import { KIT_MESSAGES } from '@vpp/shared/kit-designer/messages';
import { KIT_DESIGNER_PERMISSION } from '@vpp/shared/kit-designer/permissions';
import { useState } from 'react';
import { PageLayout } from '../../components/page-layout.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { useKitOptions } from './api.ts';
import { KitBuilderModal } from './components/kit-builder-modal.tsx';

/** What to have at hand before starting: the design asks for each in turn. */
const CHECKLIST = [
  'The grid connection: single-, two- or three-phase (the main switch or the meter shows it).',
  'The inverters already on site (up to 5): make and model, and the battery connected to each.',
  'The inverters and batteries to fit (up to 5): which ones, and whether they are all-in-one units.',
  'For each inverter: whether solar is connected, and for solar on its own inverter whether it is single- or three-phase.',
  'A job reference for the order e-mail.',
];

/** /ordering/kit-designer: the design checklist, then the three-step builder. */
export function KitDesignerPage() {
  const allowed = usePermission(KIT_DESIGNER_PERMISSION);
  const options = useKitOptions(allowed);
  const [opened, setOpened] = useState(false);
  return (
    <PageLayout title={KIT_MESSAGES.title} permission={KIT_DESIGNER_PERMISSION}>
      {allowed && (
        <Card withBorder padding="lg" maw={760}>
          <Stack gap="md">
            <Text fw={600}>Design checklist</Text>
            <Text size="sm" c="dimmed">
              Design a home's monitoring kit: the builder turns the site's inverters, batteries and solar into the list of parts to order, and e-mails it to you
              and your organisation's ordering desk.
            </Text>
            <List size="sm" spacing="xs">
              {CHECKLIST.map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List>
            {options.isError && (
              <Alert color="red" title={KIT_MESSAGES.loadFailed}>
                <Group justify="space-between">
                  <Text size="sm">The inverter and battery catalogue could not be loaded.</Text>
                  <Button size="xs" variant="light" onClick={() => options.refetch()}>
                    Retry
                  </Button>
                </Group>
              </Alert>
            )}
            <Group>
              <Button onClick={() => setOpened(true)} disabled={!options.data}>
                Get Started
              </Button>
              {options.isPending && (
                <Center>
                  <Loader size="sm" aria-label="Loading kit options" />
                </Center>
              )}
            </Group>
          </Stack>
        </Card>
      )}
      {options.data && opened && <KitBuilderModal catalogue={options.data} onClose={() => setOpened(false)} />}
    </PageLayout>
  );
}
