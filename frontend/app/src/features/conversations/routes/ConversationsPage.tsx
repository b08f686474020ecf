import { Button, Card, Stack, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconArrowLeft, IconMessages } from "@tabler/icons-react";
import { Group, Panel, Separator } from "react-resizable-panels";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { ConversationDetail } from "../components/ConversationDetail";
import { ConversationList } from "../components/ConversationList";
import { STACKED } from "../components/paging";

const HEIGHT = "calc(100dvh - 120px)";

function SelectPrompt() {
  return (
    <Stack align="center" justify="center" h="100%" gap="xs" c="dimmed">
      <IconMessages size={40} />
      <Text>Select a conversation</Text>
    </Stack>
  );
}

/** `/conversations` and `/conversations/:conversationId`: the resizable split view. */
export function ConversationsPage() {
  const { conversationId } = useParams();
  // List and detail stack instead of splitting on phones and tablets.
  const narrow = useMediaQuery(STACKED);
  const navigate = useNavigate();
  // Back to the list as it was: one customer's conversations stay one customer's.
  const [params] = useSearchParams();
  const search = params.toString();

  if (narrow) {
    return (
      <Stack gap="sm">
        {conversationId && (
          <>
            <Button
              variant="subtle"
              leftSection={<IconArrowLeft size={16} />}
              onClick={() => navigate(search ? `/conversations?${search}` : "/conversations")}
              style={{ alignSelf: "flex-start" }}
            >
              All conversations
            </Button>
            <Card withBorder p={0}>
              <ConversationDetail key={conversationId} id={conversationId} />
            </Card>
          </>
        )}
        {!conversationId && (
          <Card withBorder p={0}>
            <ConversationList />
          </Card>
        )}
      </Stack>
    );
  }

  return (
    <Card withBorder p={0} h={HEIGHT}>
      <Group orientation="horizontal" id="conversations-split">
        <Panel id="conversation-list" defaultSize="35%" minSize="25%" maxSize="50%">
          <ConversationList selected={conversationId} />
        </Panel>
        <Separator
          aria-label="Resize the conversation list"
          style={{ width: 6, background: "var(--mantine-color-gray-2)", cursor: "col-resize" }}
        />
        <Panel id="conversation-detail" defaultSize="65%" minSize="50%">
          {conversationId ? (
            <ConversationDetail key={conversationId} id={conversationId} />
          ) : (
            <SelectPrompt />
          )}
        </Panel>
      </Group>
    </Card>
  );
}
