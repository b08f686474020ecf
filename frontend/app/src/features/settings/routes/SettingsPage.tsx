import { Card, Tabs } from "@mantine/core";
import { IconBell, IconLock, IconPalette, IconUser } from "@tabler/icons-react";
import { useAuth } from "../../../lib/auth";
import { AccountTab } from "../components/AccountTab";
import { AppearanceTab } from "../components/AppearanceTab";
import { NotificationsTab } from "../components/NotificationsTab";
import { SecurityTab } from "../components/SecurityTab";

export function SettingsPage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <Card withBorder radius="md" p="lg">
      <Tabs defaultValue="account" keepMounted={false}>
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
      </Tabs>
    </Card>
  );
}
