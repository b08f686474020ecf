import { Center, Loader } from "@mantine/core";

/** Shown while the session check runs. */
export function FullPageLoader() {
  return (
    <Center h="100vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
