import { Alert, Anchor, Button, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconCircleX } from "@tabler/icons-react";
import { Link, useSearchParams } from "react-router";
import { supportMailto } from "../../../lib/contact";
import { failureReason } from "../api/payments";
import { Detail, ResultHeading, ResultLayout } from "../components/ResultLayout";

/** Where the gateway returns after a failed or abandoned payment. */
export function PaymentFailurePage() {
  const [params] = useSearchParams();
  const txnid = params.get("txnid");

  return (
    <ResultLayout>
      <Stack gap="lg">
        <ResultHeading icon={<IconCircleX size={36} />} color="red" title="Payment Failed">
          <Text c="dimmed">We couldn't process your payment...</Text>
        </ResultHeading>
        <Alert color="red" variant="light" role="alert">
          {failureReason(params)}
        </Alert>
        {txnid ? <Detail label="Transaction ID" value={txnid} /> : null}
        <Text fz="sm" c="dimmed" ta="center">
          If you continue to experience issues, please{" "}
          <Anchor
            href={supportMailto(
              txnid ? `Payment failed: ${txnid}` : "Payment failed",
              txnid ? `Transaction ID: ${txnid}` : undefined,
            )}
            fz="sm"
            c="indigo.8"
          >
            contact our support team
          </Anchor>
          .
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Button component={Link} to="/settings/billing">
            Try Again
          </Button>
          <Button component={Link} to="/dashboard" variant="default">
            Go to Dashboard
          </Button>
        </SimpleGrid>
      </Stack>
    </ResultLayout>
  );
}
