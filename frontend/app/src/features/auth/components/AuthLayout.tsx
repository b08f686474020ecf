import { Box, Grid, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { LegalLinks, MarketingPanel } from "../../../components/marketing";
import { Logo } from "../../../components/Logo";
import { READABLE_TEXT } from "../../../components/a11y";

/** Sign-in pages: the form on the left, the marketing panel on the right. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Grid gutter={0} mih="100vh" style={READABLE_TEXT}>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Stack p={{ base: "md", sm: "xl" }} mih="100vh" justify="center" align="center">
          <Box w="100%" maw={440}>
            <Box
              component={Link}
              to="/home"
              style={{ textDecoration: "none" }}
              mb="lg"
              display="inline-block"
            >
              <Logo />
            </Box>
            <Paper withBorder shadow="sm" radius="md" p={{ base: "md", sm: "xl" }}>
              <Title order={2} mb={4}>
                {title}
              </Title>
              {subtitle ? (
                <Text c="dimmed" fz="sm" mb="lg">
                  {subtitle}
                </Text>
              ) : null}
              {children}
            </Paper>
            <Box mt="md">
              <LegalLinks />
            </Box>
          </Box>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <MarketingPanel />
      </Grid.Col>
    </Grid>
  );
}
