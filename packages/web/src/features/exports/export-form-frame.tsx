import { Button, Group, Stack } from '@mantine/core';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import type { ReactNode } from 'react';

/** Both export forms: their fields, then Cancel and Begin Export (which submits; the form checks itself, not the browser). */
export function ExportFormFrame(props: { children: ReactNode; submitting: boolean; onCancel: () => void; onSubmit: () => void }) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <Stack gap="md">
        {props.children}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {M.cancel}
          </Button>
          <Button type="submit" loading={props.submitting}>
            {M.beginExport}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
