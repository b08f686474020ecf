import { Button, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconClockExclamation } from "@tabler/icons-react";
import { Link, useSearchParams } from "react-router";
import { NEXT_PARAM, withNext } from "../../../lib/return-to";
import { AuthLayout } from "../components/AuthLayout";

/** `/auth`: where the app sends the owner when the server rejects their session (a 401). */
export function SessionExpiredPage() {
  const [params] = useSearchParams();
  return (
    <AuthLayout title="Your session has expired">
      <Stack align="flex-start">
        <ThemeIcon size={48} radius="xl" color="orange" variant="light">
          <IconClockExclamation size={28} />
        </ThemeIcon>
        <Text>For your security you were signed out. Please sign in again to continue.</Text>
        <Button component={Link} to={withNext("/login", params.get(NEXT_PARAM))} fullWidth>
          Sign in again
        </Button>
      </Stack>
    </AuthLayout>
  );
}
