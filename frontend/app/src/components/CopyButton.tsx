import { Button } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useEffect, useState } from "react";

/** How long "Copied!" shows after a copy: long enough to notice, then the button resets. */
const COPIED_MS = 2000;

/** Copies `text`; says Copied! for 2 seconds, or calls `onError` when the browser refuses. */
export function CopyButton({
  text,
  label = "Copy",
  onError,
}: {
  text: string;
  label?: string;
  onError?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(t);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      onError?.();
    }
  }

  return (
    <Button
      size="xs"
      variant={copied ? "light" : "default"}
      color={copied ? "teal" : undefined}
      leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
      onClick={() => void copy()}
    >
      {copied ? "Copied!" : label}
    </Button>
  );
}
