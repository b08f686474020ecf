import { Card, Center, Loader, Tabs } from "@mantine/core";
import { IconBell, IconLock, IconPalette, IconUser, IconWebhook } from "@tabler/icons-react";
import { lazy, Suspense, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { useAuth } from "../../../lib/auth";
import { AccountTab } from "../components/AccountTab";
import { AppearanceTab } from "../components/AppearanceTab";
import { NotificationsTab } from "../components/NotificationsTab";
import { SecurityTab } from "../components/SecurityTab";

// Integrations is the largest tab and has its own address: its code loads when it opens.
const IntegrationsTab = lazy(async () => ({
  default: (await import("../components/IntegrationsTab")).IntegrationsTab,
}));

/** The Integrations tab's address (the link in the email about a switched-off endpoint). */
export const INTEGRATIONS_PATH = "/settings/integrations";

export function SettingsPage() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [tab, setTab] = useState("account");
  if (!user) return null;
  const onIntegrations = pathname.replace(/\/+$/, "") === INTEGRATIONS_PATH;
  const value = onIntegrations ? "integrations" : tab;

  function choose(next: string | null) {
    if (!next) return;
    if (next === "integrations") {
      navigate(INTEGRATIONS_PATH);
      return;
    }
    setTab(next);
    if (onIntegrations) navigate("/settings");
  }

  return (
    <Card withBorder radius="md" p="lg">
      <Tabs value={value} onChange={choose} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="account" leftSection={<IconUser size={16} />}>
            Account
          </Tabs.Tab>
          <Tabs.Tab value="appearance" leftSection={<IconPalette size={16} />}>
            Appearance
          </Tabs.Tab>
          <Tabs.Tab value="notifications" leftSection={<IconBell size={16} />}>
            Notifications
          </Tabs.Tab>
          <Tabs.Tab value="security" leftSection={<IconLock size={16} />}>
            Security
          </Tabs.Tab>
          <Tabs.Tab value="integrations" leftSection={<IconWebhook size={16} />}>
            Integrations
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="account">
          <AccountTab user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="appearance">
          <AppearanceTab />
        </Tabs.Panel>
        <Tabs.Panel value="notifications">
          <NotificationsTab user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <SecurityTab />
        </Tabs.Panel>
        <Tabs.Panel value="integrations">
          <Suspense
            fallback={
              <Center p="xl">
                <Loader size="sm" aria-label="Loading integrations" />
              </Center>
            }
          >
            <IntegrationsTab />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Card>
  );
}
