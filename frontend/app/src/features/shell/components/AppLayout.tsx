import { AppShell, Box, Burger, Drawer, Group, Title } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { Link, Outlet, useLocation } from "react-router";
import { Logo } from "../../../components/Logo";
import { titleForPath } from "../../../lib/titles";
import { ImpersonationBanner } from "./ImpersonationBanner";
import { Navigation } from "./Navigation";
import { READABLE_TEXT } from "../../../components/a11y";

/** Below 768 px the sidebar becomes a slide-in drawer of this width. */
const DRAWER_WIDTH = 280;
/** The widest a page's content gets; on wider screens it stays centred. */
const PAGE_WIDTH = 1280;

/** The logged-in shell: sidebar, header title by path, and a drawer on small screens. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const mobile = useMediaQuery("(max-width: 767.98px)");

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: "sm", collapsed: { mobile: true } }}
      padding="md"
      bg="gray.0"
      style={READABLE_TEXT}
    >
      <AppShell.Header>
        <Group h="100%" px="md" gap="md">
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={opened ? "Close navigation" : "Open navigation"}
          />
          <Box
            component={Link}
            to="/dashboard"
            visibleFrom="sm"
            style={{ textDecoration: "none" }}
            w={228}
          >
            <Logo size="sm" />
          </Box>
          <Title order={1} fz="h3">
            {titleForPath(pathname)}
          </Title>
        </Group>
      </AppShell.Header>
      {/* Folded away on a phone: hidden, so Tab and screen readers skip links no one can see. */}
      <AppShell.Navbar p="sm" visibleFrom="sm">
        <Navigation />
      </AppShell.Navbar>
      <Drawer
        opened={opened && Boolean(mobile)}
        onClose={close}
        size={DRAWER_WIDTH}
        padding="sm"
        title={<Logo size="sm" />}
        closeButtonProps={{ "aria-label": "Close navigation" }}
        styles={{ content: READABLE_TEXT }}
      >
        <Box h="calc(100vh - 90px)">
          <Navigation onNavigate={close} />
        </Box>
      </Drawer>
      <AppShell.Main>
        {/* Every page gets the same box: the whole width, centred beyond PAGE_WIDTH. */}
        <Box maw={PAGE_WIDTH} mx="auto" data-testid="page">
          <ImpersonationBanner />
          <Outlet />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
