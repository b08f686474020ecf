import {
  Anchor,
  Avatar,
  Blockquote,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { IconChartBar, IconCode, IconMessageChatbot, IconPointer } from "@tabler/icons-react";

/** The product's four headline features, as the marketing pages present them. */
export const FEATURES = [
  {
    icon: IconPointer,
    title: "Exit-intent detection",
    text: "Notices when a visitor is about to leave: mouse movement, scroll patterns and mobile gestures.",
  },
  {
    icon: IconMessageChatbot,
    title: "AI conversations",
    text: "An assistant that answers from your own knowledge base and turns questions into leads.",
  },
  {
    icon: IconChartBar,
    title: "Revenue attribution",
    text: "See which campaigns brought the leads and the sales, in rupees.",
  },
  {
    icon: IconCode,
    title: "One-line integration",
    text: "Paste one script tag into your site. No developer needed.",
  },
] as const;

/** Headline claims of the marketing copy. */
export const CLAIMS = [
  { value: "35%", label: "Average conversion lift" },
  { value: "2.3s", label: "AI response time" },
  { value: "₹45K", label: "Average monthly revenue" },
  { value: "94%", label: "Satisfaction" },
] as const;

export function Claims() {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
      {CLAIMS.map((c) => (
        <Stack key={c.label} gap={0} align="center">
          <Text fz={28} fw={800} c="indigo.7">
            {c.value}
          </Text>
          <Text fz="sm" c="dimmed" ta="center">
            {c.label}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

export function Testimonial() {
  return (
    <Blockquote color="indigo" radius="md" p="lg" mt="md">
      <Text fz="md" fs="italic">
        “We added one line to our store and ConvertAssist started catching shoppers at the exit.
        Within a month, abandoned carts turned into ₹1.2 lakh of extra sales.”
      </Text>
      <Group mt="md" gap="sm">
        <Avatar color="indigo" radius="xl">
          PS
        </Avatar>
        <div>
          <Text fw={600} fz="sm">
            Priya Sharma
          </Text>
          <Text fz="xs" c="dimmed">
            Founder, Kesar Handlooms, Jaipur
          </Text>
        </div>
      </Group>
    </Blockquote>
  );
}

/** The side panel of the sign-in pages: features, claims, testimonial, the trial offer. */
export function MarketingPanel() {
  return (
    <Paper radius={0} p={{ base: "lg", md: 48 }} bg="indigo.0" h="100%">
      <Stack gap="lg" maw={520} mx="auto">
        <Title order={2}>Turn leaving visitors into leads and sales</Title>
        <Stack gap="sm">
          {FEATURES.map((f) => (
            <Group key={f.title} gap="sm" wrap="nowrap" align="flex-start">
              <f.icon size={22} color="var(--mantine-color-indigo-6)" />
              <div>
                <Text fw={600}>{f.title}</Text>
                <Text fz="sm" c="dimmed">
                  {f.text}
                </Text>
              </div>
            </Group>
          ))}
        </Stack>
        <Claims />
        <Testimonial />
        <Text fz="sm" c="dimmed">
          Yearly plans available. Start with a 3-day free trial — no credit card required.
        </Text>
      </Stack>
    </Paper>
  );
}

/** Terms and privacy links; they open in new tabs. */
export function LegalLinks() {
  return (
    <Text fz="xs" c="dimmed" ta="center">
      By continuing you agree to our{" "}
      <Anchor href="/terms" target="_blank" rel="noopener noreferrer" fz="xs">
        Terms of Service
      </Anchor>{" "}
      and{" "}
      <Anchor href="/privacy" target="_blank" rel="noopener noreferrer" fz="xs">
        Privacy Policy
      </Anchor>
      .
    </Text>
  );
}
