import { Box, Card, Center, Group, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Logo } from "../../../components/Logo";
import { READABLE_TEXT } from "../../../components/a11y";

/** The frame of the public payment result pages: the logo over one centred card. */
export function ResultLayout({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" bg="gray.0" p="md" style={READABLE_TEXT}>
      <Box w="100%" maw={480}>
        <Box
          component={Link}
          to="/"
          mb="md"
          display="inline-block"
          style={{ textDecoration: "none" }}
        >
          <Logo />
        </Box>
        <Card withBorder radius="md" p="xl" shadow="sm">
          {children}
        </Card>
      </Box>
    </Center>
  );
}

/** The icon, title and message every result state starts with. */
export function ResultHeading({
  icon,
  color,
  title,
  children,
}: {
  icon: ReactNode;
  color: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <Stack align="center" ta="center" gap="sm">
      <ThemeIcon size={64} radius="xl" color={color} variant="light">
        {icon}
      </ThemeIcon>
      <Title order={1} fz="h2">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** One labelled value of a payment (transaction id, amount, plan). */
export function Detail({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Group justify="space-between" gap="md" wrap="nowrap" align="flex-start">
      <Text fz="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text fz="sm" fw={600} ta="right" style={{ overflowWrap: "anywhere" }}>
        {value}
      </Text>
    </Group>
  );
}
