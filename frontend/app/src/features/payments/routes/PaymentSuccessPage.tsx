import { Anchor, Button, Loader, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconCircleCheck, IconClockHour4 } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { useAuth } from "../../../lib/auth";
import { formatInr } from "../../../lib/format";
import { verifyPayment } from "../api/payments";
import { Detail, ResultHeading, ResultLayout } from "../components/ResultLayout";

/** Where the gateway returns after a payment: the server verifies it, then the plan shows. */
export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const txnid = params.get("txnid");
  const { refreshUser } = useAuth();
  const verification = useQuery({
    queryKey: ["payment-verify", txnid],
    queryFn: () => verifyPayment(txnid),
    retry: false,
    staleTime: Infinity,
  });
  const result = verification.data;

  useEffect(() => {
    // The account now carries the new plan.
    if (result?.kind === "success") void refreshUser();
  }, [result, refreshUser]);

  return (
    <ResultLayout>
      {!result ? (
        <Stack align="center" gap="md" py="lg" role="status">
          <Loader />
          <Text fw={600}>Verifying your payment...</Text>
        </Stack>
      ) : result.kind === "success" ? (
        <Stack gap="lg">
          <ResultHeading
            icon={<IconCircleCheck size={36} />}
            color="teal"
            title="Payment Successful!"
          >
            <Text c="dimmed">Thank you! Your plan is now active.</Text>
          </ResultHeading>
          <Stack gap={8}>
            <Detail label="Transaction ID" value={result.txnid} />
            <Detail label="Amount" value={formatInr(result.amount)} />
            <Detail label="Plan" value={result.productinfo} />
          </Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Button component={Link} to="/dashboard">
              Go to Dashboard
            </Button>
            <Button component={Link} to="/settings/billing" variant="default">
              View Billing
            </Button>
          </SimpleGrid>
        </Stack>
      ) : (
        <Stack gap="lg">
          <ResultHeading
            icon={<IconClockHour4 size={36} />}
            color="blue"
            title="Payment Processing"
          >
            <Text c="dimmed">We're processing your payment. This may take a few moments.</Text>
            {result.signedOut ? (
              <Text fz="sm">
                <Anchor component={Link} to="/login" inherit>
                  Sign in
                </Anchor>{" "}
                to see your plan once the payment is confirmed.
              </Text>
            ) : null}
          </ResultHeading>
          {txnid ? <Detail label="Transaction ID" value={txnid} /> : null}
          <Button component={Link} to="/dashboard">
            Go to Dashboard
          </Button>
        </Stack>
      )}
    </ResultLayout>
  );
}
