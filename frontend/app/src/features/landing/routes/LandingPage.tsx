import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import {
  IconChartLine,
  IconCheck,
  IconMessageChatbot,
  IconPlayerPlay,
  IconPointer,
} from "@tabler/icons-react";
import { Link } from "react-router";
import { Claims, FEATURES, Testimonial } from "../../../components/marketing";
import { Logo } from "../../../components/Logo";
import { formatInr } from "../../../lib/format";

const STEPS = [
  {
    icon: IconPointer,
    title: "Exit-intent detection",
    text: "The widget watches mouse movement, scrolling and mobile gestures and notices the moment a visitor is about to leave.",
  },
  {
    icon: IconMessageChatbot,
    title: "AI conversations",
    text: "A popup opens with an assistant that answers questions about your products, prices and delivery, and offers a reason to stay.",
  },
  {
    icon: IconChartLine,
    title: "Revenue analytics",
    text: "Every lead and sale is attributed to the campaign that saved it, so you see exactly what it earned you.",
  },
];

const BETA_FEATURES = [
  "Unlimited conversations",
  "AI chatbot",
  "WhatsApp integration",
  "Real-time analytics",
];

export function LandingPage() {
  return (
    <Box>
      <Box
        component="header"
        py="md"
        style={{ borderBottom: "1px solid var(--mantine-color-gray-2)" }}
      >
        <Container size="lg">
          <Group justify="space-between">
            <Logo />
            <Group gap="sm">
              <Button component={Link} to="/login" variant="subtle">
                Login
              </Button>
              <Button component={Link} to="/register">
                Get Started
              </Button>
            </Group>
          </Group>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, md: 96 }}>
        <Stack align="center" gap="lg" ta="center">
          <Badge size="lg" variant="light">
            Beta
          </Badge>
          <Title order={1} fz={{ base: 34, md: 52 }} maw={820} lh={1.15}>
            Turn visitors who are about to leave into leads and sales
          </Title>
          <Text fz="lg" c="dimmed" maw={640}>
            ConvertAssist notices exit intent, opens a friendly AI assistant and a lead form, and
            shows you the revenue every campaign brings back.
          </Text>
          <Group>
            <Button component={Link} to="/register" size="lg">
              Start Free Trial
            </Button>
            {/* A page the server serves (not a dashboard route): the real widget on a sample shop. */}
            <Button
              component="a"
              href="/live-demo"
              size="lg"
              variant="default"
              leftSection={<IconPlayerPlay size={18} />}
            >
              Watch Demo
            </Button>
          </Group>
          <Box w="100%" maw={760} mt="xl">
            <Claims />
          </Box>
        </Stack>
      </Container>

      <Box bg="gray.0" py={{ base: 48, md: 80 }} id="how-it-works">
        <Container size="lg">
          <Title order={2} ta="center" mb="xl">
            How it works
          </Title>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
            {STEPS.map((s, i) => (
              <Card key={s.title} withBorder radius="md" p="xl">
                <ThemeIcon size={44} radius="md" variant="light" mb="md">
                  <s.icon size={24} />
                </ThemeIcon>
                <Text fz="xs" c="dimmed" fw={700} tt="uppercase">
                  Step {i + 1}
                </Text>
                <Title order={3} fz="h4" mb="xs">
                  {s.title}
                </Title>
                <Text c="dimmed" fz="sm">
                  {s.text}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, md: 80 }}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
          {FEATURES.map((f) => (
            <Stack key={f.title} gap={6}>
              <f.icon size={26} color="var(--mantine-color-indigo-6)" />
              <Text fw={700}>{f.title}</Text>
              <Text fz="sm" c="dimmed">
                {f.text}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>

      <Box bg="indigo.0" py={{ base: 48, md: 80 }} id="pricing">
        <Container size="sm">
          <Title order={2} ta="center" mb="xl">
            Simple pricing
          </Title>
          <Card withBorder radius="lg" p="xl" shadow="sm">
            <Group justify="space-between" align="flex-start">
              <div>
                <Badge variant="light" mb="xs">
                  Beta
                </Badge>
                <Title order={3}>Beta plan</Title>
              </div>
              <div style={{ textAlign: "right" }}>
                <Text fz={36} fw={800} lh={1}>
                  {formatInr(5000)}
                </Text>
                <Text c="dimmed" fz="sm">
                  per month
                </Text>
              </div>
            </Group>
            <List
              mt="lg"
              spacing="xs"
              icon={
                <ThemeIcon size={20} radius="xl" color="teal">
                  <IconCheck size={14} />
                </ThemeIcon>
              }
            >
              {BETA_FEATURES.map((f) => (
                <List.Item key={f}>{f}</List.Item>
              ))}
            </List>
            <Text fz="sm" c="dimmed" mt="lg">
              Yearly plans available. Every plan starts with a 3-day free trial — no credit card
              required.
            </Text>
            <Button component={Link} to="/register" fullWidth mt="lg" size="md">
              Start Free Trial
            </Button>
          </Card>
        </Container>
      </Box>

      <Container size="md" py={{ base: 48, md: 80 }}>
        <Testimonial />
        <Stack align="center" mt={48} gap="md" ta="center">
          <Title order={2}>Stop losing the visitors you paid for</Title>
          <Text c="dimmed">Add one line to your site and let ConvertAssist bring them back.</Text>
          <Button component={Link} to="/register" size="lg">
            Get Started
          </Button>
        </Stack>
      </Container>

      <Box
        component="footer"
        py="lg"
        style={{ borderTop: "1px solid var(--mantine-color-gray-2)" }}
      >
        <Container size="lg">
          <Group justify="space-between">
            <Text fz="sm" c="dimmed">
              © 2024 ConvertAssist. All rights reserved.
            </Text>
            <Group gap="md">
              <Text
                component="a"
                href="/terms"
                target="_blank"
                rel="noopener noreferrer"
                fz="sm"
                c="dimmed"
              >
                Terms
              </Text>
              <Text
                component="a"
                href="/privacy"
                target="_blank"
                rel="noopener noreferrer"
                fz="sm"
                c="dimmed"
              >
                Privacy
              </Text>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
