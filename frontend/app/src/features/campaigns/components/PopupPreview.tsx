import { Box } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import { useEffect, useRef } from "react";
// The widget's own popup, the module the embed loads on exit intent: one renderer, so the
// preview and the live popup cannot differ.
import { preview } from "../../../../../widget/src/popup";
import type { PublicCampaign } from "../../../../../widget/src/types";
import type { CampaignSettings } from "../api/campaigns";

/** The assistant's greeting when the campaign sets no initial message (as the server's). */
export const DEFAULT_GREETING = "Hi! I noticed you're about to leave. What can I help you with?";

/** The popup's width and height in pixels for each size choice (as the widget's). */
export const POPUP_SIZES: Record<string, { width: number; height: number }> = {
  small: { width: 480, height: 580 },
  medium: { width: 560, height: 680 },
  large: { width: 640, height: 780 },
};

/** The sample exchange the designer shows under the greeting. */
const SAMPLE: { role: "assistant" | "user"; text: string }[] = [
  { role: "user", text: "Do you deliver to Pune? What does shipping cost?" },
  { role: "assistant", text: "Yes! Delivery to Pune takes 3–5 days and is free above ₹999." },
];

/**
 * What the widget gets from `GET /api/widget/campaigns/{id}/config` for these settings: the
 * popup as saved, the greeting, and the email capture built from the design (the server's
 * `email_capture_form`).
 */
export function publicCampaign(settings: CampaignSettings): PublicCampaign {
  const d = settings.popup.design;
  return {
    id: "preview",
    exitIntent: settings.exitIntent as PublicCampaign["exitIntent"],
    popup: settings.popup as PublicCampaign["popup"],
    targeting: settings.targeting as PublicCampaign["targeting"],
    greeting: settings.aiSettings.initialMessage.trim() || DEFAULT_GREETING,
    emailCapture: {
      id: "email-capture",
      name: "Email capture",
      type: "lead",
      title: d.formTitle,
      subtitle: d.formSubtitle,
      buttonText: d.submitButtonText,
      successMessage: "Thank you! We'll be in touch soon.",
      fields: [
        {
          name: "email",
          label: "Email",
          type: "email",
          required: true,
          placeholder: "Enter your email",
        },
      ],
    },
  };
}

/**
 * The popup as visitors will see it, over a dimmed page, scaled down to fit its column: the
 * widget's popup itself (its code and styles, in its shadow root), drawn in this box and sending
 * nothing.
 */
export function PopupPreview({
  settings,
  scale = 0.62,
  sample = false,
}: {
  settings: CampaignSettings;
  scale?: number;
  /** Show a sample exchange under the greeting. */
  sample?: boolean;
}) {
  const d = settings.popup.design;
  const size = POPUP_SIZES[d.popupSize] ?? { width: 560, height: 680 };
  const { ref, width } = useElementSize();
  const stage = useRef<HTMLDivElement>(null);
  // 16 px padding each side; never larger than `scale`, smaller when the column is narrow.
  const fit = width > 0 ? Math.min(scale, width / size.width) : scale;
  const campaign = JSON.stringify(publicCampaign(settings));

  useEffect(() => {
    const box = stage.current;
    if (!box) return;
    preview(box, JSON.parse(campaign) as PublicCampaign, sample ? SAMPLE : []);
    return () => box.replaceChildren();
  }, [campaign, sample]);

  return (
    <Box
      data-testid="popup-preview"
      data-scale={fit.toFixed(3)}
      bg="rgba(15, 23, 42, 0.55)"
      p="md"
      style={{ borderRadius: 12, overflow: "hidden" }}
      h={size.height * fit + 32}
    >
      <Box ref={ref} w="100%">
        {/* The transform makes this box the popup's containing block: it is drawn here, scaled. */}
        <div
          ref={stage}
          data-popup-size={d.popupSize}
          style={{
            position: "relative",
            width: size.width,
            height: size.height,
            transform: `scale(${fit})`,
            transformOrigin: "top left",
          }}
        />
      </Box>
    </Box>
  );
}
