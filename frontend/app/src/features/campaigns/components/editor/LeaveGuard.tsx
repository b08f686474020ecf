import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { Blocker } from "react-router";

/** Asks before leaving the editor with unsaved changes: Stay, or leave and lose them. */
export function LeaveGuard({ blocker, name }: { blocker: Blocker; name: string }) {
  return (
    <Modal
      opened={blocker.state === "blocked"}
      onClose={() => blocker.reset?.()}
      title="Leave without saving?"
      centered
    >
      <Stack>
        <Text>Your changes to {name} are not saved yet. Leave and lose them?</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
            Stay
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            Leave without saving
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
