import { Avatar, Box, Group, Menu, NavLink, Stack, Text, UnstyledButton } from "@mantine/core";
import {
  IconChevronUp,
  IconCreditCard,
  IconLayoutDashboard,
  IconLogout,
  IconMessages,
  IconSettings,
  IconShieldLock,
  IconSpeakerphone,
  IconUserCircle,
  IconUsers,
} from "@tabler/icons-react";
import { Link, useLocation, useNavigate } from "react-router";
import { isStaff, useAuth } from "../../../lib/auth";

const ENTRIES = [
  { label: "Overview", to: "/dashboard", icon: IconLayoutDashboard },
  { label: "Campaigns", to: "/campaigns", icon: IconSpeakerphone },
  { label: "Conversations", to: "/conversations", icon: IconMessages },
  { label: "Customers", to: "/customers", icon: IconUsers },
  { label: "Billing", to: "/billing", icon: IconCreditCard },
  { label: "Settings", to: "/settings", icon: IconSettings },
];

function isActive(pathname: string, to: string): boolean {
  if (to === "/dashboard") return pathname === "/" || pathname.startsWith("/dashboard");
  // The billing view under settings belongs to Billing.
  if (pathname.startsWith("/settings/billing")) return to === "/billing";
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Sidebar entries and the user menu; used by the desktop navbar and the mobile drawer. */
export function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const { user, logout } = useAuth();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const entries = isStaff(user)
    ? [...ENTRIES, { label: "Admin Dashboard", to: "/admin", icon: IconShieldLock }]
    : ENTRIES;

  return (
    <Stack justify="space-between" h="100%" gap="md">
      <Box component="nav" aria-label="Main">
        {entries.map((e) => (
          <NavLink
            key={e.to}
            component={Link}
            to={e.to}
            label={e.label}
            leftSection={<e.icon size={18} stroke={1.6} />}
            active={isActive(pathname, e.to)}
            onClick={onNavigate}
            variant="light"
            style={{ borderRadius: 8 }}
            mb={2}
          />
        ))}
      </Box>
      <Menu position="top-start" width={230} withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <UnstyledButton
            aria-label="User menu"
            p="xs"
            style={{ borderRadius: 8, border: "1px solid var(--mantine-color-gray-3)" }}
          >
            <Group gap="sm" wrap="nowrap">
              <Avatar color="indigo" radius="xl" size={34}>
                {(user?.name ?? "?").slice(0, 1).toUpperCase()}
              </Avatar>
              <Box style={{ flex: 1, minWidth: 0 }}>
                <Text fz="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
                  {user?.name}
                </Text>
                <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                  {user?.email}
                </Text>
              </Box>
              <IconChevronUp size={16} />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconUserCircle size={16} />}
            onClick={() => {
              onNavigate?.();
              navigate("/settings");
            }}
          >
            Account Settings
          </Menu.Item>
          <Menu.Item
            c="red.9"
            leftSection={<IconLogout size={16} />}
            onClick={() => {
              onNavigate?.();
              logout();
              navigate("/login");
            }}
          >
            Logout
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Stack>
  );
}
