import { Anchor, Container, List, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { Logo } from "../../../components/Logo";

const TERMS = [
  "ConvertAssist provides exit-intent campaigns, an AI assistant and lead capture for websites you own or are allowed to manage.",
  "You are responsible for what your campaigns say and for telling your visitors how you use the details they share.",
  "Paid plans renew each billing period until cancelled; a cancelled plan stays active until the end of the period you paid for.",
  "Do not use the service to send spam, to mislead visitors, or to collect data you have no right to collect.",
  "We may suspend accounts that break these terms. You can export your data and close your account at any time.",
];

const PRIVACY = [
  "We store your account details (name, email, phone) to run your account and to bill you.",
  "Leads your campaigns capture belong to you. We process them only to show them to you and to run your campaigns.",
  "Passwords are stored as argon2id hashes; we never see them in plain text.",
  "The widget keeps a visitor id in your visitors' browser storage to respect display limits; it sets no third-party cookies.",
  "Write to privacy@convertassist.in to see, correct or delete the data we hold about you.",
];

export function LegalPage({ kind }: { kind: "terms" | "privacy" }) {
  const terms = kind === "terms";
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Anchor component={Link} to="/home" underline="never">
          <Logo />
        </Anchor>
        <Title order={1}>{terms ? "Terms of Service" : "Privacy Policy"}</Title>
        <Text c="dimmed">The short version, in plain words.</Text>
        <List spacing="sm">
          {(terms ? TERMS : PRIVACY).map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      </Stack>
    </Container>
  );
}
