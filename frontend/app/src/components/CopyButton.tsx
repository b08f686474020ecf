import { Button } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useEffect, useState } from "react";

/** How long "Copied!" shows after a copy: long enough to notice, then the button resets. */
const COPIED_MS = 2000;

/**
 * Copies `text` to the clipboard. `navigator.clipboard` exists only in secure contexts (https or
 * localhost); a dashboard served over plain http on a LAN name copies through a selected,
 * off-screen text area instead.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.left = "-9999px";
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand("copy")) throw new Error("copy refused");
  } finally {
    area.remove();
  }
}

/** Copies `text`; says Copied! for 2 seconds, or calls `onError` when the browser refuses. */
export function CopyButton({
  text,
  label = "Copy",
  onError,
  onCopied,
}: {
  text: string;
  label?: string;
  onError?: () => void;
  onCopied?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(t);
  }, [copied]);

  async function copy() {
    try {
      await copyText(text);
      setCopied(true);
      onCopied?.();
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
