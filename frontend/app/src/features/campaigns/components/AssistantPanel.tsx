import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconMessageQuestion, IconRobot, IconSend, IconUser } from "@tabler/icons-react";
import { useState, type FormEvent } from "react";
import { messageOf } from "../../../lib/api-client";
import {
  UNANSWERED_PAGE_SIZE,
  askedAgo,
  matchShare,
  timesAsked,
  useTryAssistant,
  useUnansweredQuestions,
  type TryReply,
} from "../api/assistant";
import { paginationControlLabel } from "../../../components/a11y";

interface Props {
  campaignId: string;
  /** The editor's texts, saved or not: the Try box answers from them. */
  knowledgeBase: string;
  businessInfo: string;
}

function Bubble({ who, text }: { who: "visitor" | "assistant"; text: string }) {
  const visitor = who === "visitor";
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap" justify={visitor ? "flex-end" : "flex-start"}>
      {visitor ? null : <IconRobot size={18} aria-hidden style={{ flexShrink: 0, marginTop: 8 }} />}
      <Paper
        px="sm"
        py={6}
        radius="md"
        bg={visitor ? "blue.8" : "gray.1"}
        c={visitor ? "white" : undefined}
        maw="85%"
      >
        <Text fz="sm" style={{ whiteSpace: "pre-wrap" }}>
          {text}
        </Text>
      </Paper>
      {visitor ? <IconUser size={18} aria-hidden style={{ flexShrink: 0, marginTop: 8 }} /> : null}
    </Group>
  );
}

function Answer({ question, reply }: { question: string; reply: TryReply }) {
  return (
    <Stack gap="sm" data-testid="try-answer">
      <Bubble who="visitor" text={question} />
      <Bubble who="assistant" text={reply.reply} />
      {reply.answered ? null : (
        <Alert color="orange" variant="light" title="Your texts don't answer this yet">
          Visitors asking this get an honest &ldquo;not sure&rdquo; and an offer to leave their
          email. Add the answer to your knowledge base and ask again.
        </Alert>
      )}
      {reply.form ? (
        <Text fz="sm" c="dimmed">
          The widget would also show the form &ldquo;{reply.form.title}&rdquo;.
        </Text>
      ) : null}
      {reply.source === "provider" ? (
        <Text fz="sm" c="dimmed">
          Answered by your AI model, which reads the whole knowledge base.
        </Text>
      ) : reply.passages.length > 0 ? (
        <Stack gap={6}>
          <Text fz="sm" fw={600}>
            Passages used
          </Text>
          {reply.passages.map((p) => (
            <Paper key={`${p.context ?? ""}|${p.text}`} withBorder radius="sm" p="xs">
              <Group justify="space-between" gap="xs" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0, flex: "1 1 200px" }}>
                  {p.context ? (
                    <Text fz="xs" c="dimmed" fw={600} truncate>
                      {p.context}
                    </Text>
                  ) : null}
                  <Text fz="sm">{p.text}</Text>
                </Stack>
                {p.score > 0 ? (
                  <Badge variant="light" color="teal" style={{ flexShrink: 0 }}>
                    {matchShare(p.score)}
                  </Badge>
                ) : null}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}

function UnansweredList({ campaignId, onTry }: { campaignId: string; onTry: (q: string) => void }) {
  const [page, setPage] = useState(1);
  const list = useUnansweredQuestions(campaignId, page);
  const questions = list.data?.questions ?? [];
  const pages = list.data?.pagination.pages ?? 0;
  return (
    <Card withBorder radius="md" p="lg" data-testid="unanswered-questions">
      <Stack gap="sm">
        <div>
          <Title order={4}>Questions your assistant couldn&rsquo;t answer</Title>
          <Text fz="sm" c="dimmed">
            From visitors&rsquo; conversations, newest first. Add the answers to your knowledge
            base.
          </Text>
        </div>
        {list.isLoading ? (
          <Stack gap="xs" aria-busy="true">
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        ) : list.isError ? (
          <Alert color="red" role="alert">
            {messageOf(list.error, "Failed to load the unanswered questions")}
          </Alert>
        ) : questions.length === 0 ? (
          <Text fz="sm" c="dimmed">
            None yet. When visitors ask something your texts don&rsquo;t cover, it shows up here.
          </Text>
        ) : (
          <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: "none" }}>
            {questions.map((q) => (
              <Group
                component="li"
                key={`${q.question}|${q.lastAskedAt}`}
                justify="space-between"
                wrap="nowrap"
                gap="sm"
                py={8}
                style={{ borderTop: "1px solid var(--mantine-color-gray-2)" }}
              >
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text fz="sm" fw={500} style={{ overflowWrap: "anywhere" }}>
                    {q.question}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {timesAsked(q.count)} · last {askedAgo(q.lastAskedAt)}
                  </Text>
                </Stack>
                <Button
                  size="compact-sm"
                  variant="light"
                  style={{ flexShrink: 0 }}
                  aria-label={`Try “${q.question}”`}
                  onClick={() => onTry(q.question)}
                >
                  Try
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        {pages > 1 ? (
          <Pagination
            getControlProps={paginationControlLabel}
            size="sm"
            total={pages}
            value={page}
            onChange={setPage}
            aria-label="Unanswered questions pages"
          />
        ) : null}
        {list.data && list.data.pagination.total > UNANSWERED_PAGE_SIZE ? (
          <Text fz="xs" c="dimmed">
            {list.data.pagination.total.toLocaleString("en-IN")} different questions in all
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** The AI tab's helpers: try the assistant as a visitor would, and see what it couldn't answer. */
export function AssistantPanel({ campaignId, knowledgeBase, businessInfo }: Props) {
  const ask = useTryAssistant();
  const [question, setQuestion] = useState("");
  const [answered, setAnswered] = useState<{ question: string; reply: TryReply } | null>(null);

  async function tryQuestion(text: string) {
    const message = text.trim();
    try {
      const reply = await ask.mutateAsync({
        params: { path: { id: campaignId } },
        body: { message, knowledgeBase, businessInfo },
      });
      setAnswered({ question: message, reply });
    } catch {
      setAnswered(null);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void tryQuestion(question);
  }

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" p="lg" data-testid="try-assistant">
        <Stack gap="sm">
          <div>
            <Group gap="xs">
              <IconMessageQuestion size={20} aria-hidden />
              <Title order={4}>Try your assistant</Title>
            </Group>
            <Text fz="sm" c="dimmed">
              Ask what a visitor would ask. It answers from the texts on this tab, saved or not, as
              the widget would.
            </Text>
          </div>
          <form onSubmit={submit}>
            <Group gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                aria-label="Question to try"
                placeholder="e.g. How long does delivery take?"
                value={question}
                onChange={(e) => setQuestion(e.currentTarget.value)}
                maxLength={1000}
                style={{ flex: 1 }}
              />
              <Button type="submit" loading={ask.isPending} leftSection={<IconSend size={16} />}>
                Ask
              </Button>
            </Group>
          </form>
          {ask.isError ? (
            <Alert color="red" role="alert">
              {messageOf(ask.error, "The assistant could not be reached. Please try again.")}
            </Alert>
          ) : null}
          {answered ? <Answer question={answered.question} reply={answered.reply} /> : null}
        </Stack>
      </Card>
      <UnansweredList
        campaignId={campaignId}
        onTry={(q) => {
          setQuestion(q);
          void tryQuestion(q);
        }}
      />
    </Stack>
  );
}
