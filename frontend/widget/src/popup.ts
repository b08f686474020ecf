/**
 * The popup and chat, imported by the loader when exit intent fires.
 *
 * - A modal `<dialog>` in the browser's top layer: no transform, filter,
 *   `overflow`, `z-index` or stacking context of the host page can move,
 *   clip or cover it.
 * - Inside a Shadow DOM whose host resets every property (`all: initial`,
 *   important, so it wins over the page's important rules too): the page's
 *   styles reach neither the popup nor, through inheritance, its text.
 * - Fitted to the visual viewport (pinch zoom, a phone's on-screen keyboard).
 * - The page never moves: focus goes in and comes back without scrolling,
 *   wheel and touch scrolling over the popup are kept from the page, and
 *   whatever else scrolls it while the popup is open is undone.
 * - Every piece of owner or visitor text goes in through `textContent`, with
 *   `dir="auto"`: the text's own language sets its direction, never the host's `dir`.
 * - Styled by constructable stylesheets adopted by the shadow root (nothing a
 *   Content-Security-Policy without 'unsafe-inline' blocks: no `<style>`, no
 *   `style` attribute). Where they cannot be made, or do not apply, the popup
 *   is not shown (never unstyled in the page's flow) and the console says why.
 * - Text on the owner's primary colour is white or near-black, whichever
 *   contrasts more (`contrast.ts`).
 * - The dashboard's previews draw this same popup (`preview()`): inside their own box, not
 *   modal, and never sending anything.
 * - In an A/B test the visitor's arm (chosen by the loader) is laid over the campaign before
 *   anything is drawn (`withOverrides`), and its id goes with the conversation's start.
 */
import { readableText } from "./contrast";
import { toJson } from "./json";
import type { OpenOptions, Overrides, PreviewOptions, PublicCampaign, PublicForm } from "./types";

const SIZES: Record<string, [number, number]> = {
  small: [480, 580],
  medium: [560, 680],
  large: [640, 780],
};

type Attrs = Record<string, string>;

/** The assistant's greeting when the campaign sets no initial message (as the server's). */
const DEFAULT_GREETING = "Hi! I noticed you're about to leave. What can I help you with?";

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/**
 * `base` with `patch` laid over it, as the server merges a test's overrides into the settings:
 * objects merge key by key, anything else (arrays included) replaces; an undefined value (no
 * such key in JSON) changes nothing. Neither is changed.
 */
export function merge(base: unknown, patch: unknown): unknown {
  if (!isObject(base) || !isObject(patch)) return patch;
  const out: Record<string, unknown> = {};
  let keys = Object.keys(base);
  for (let i = 0; i < keys.length; i += 1) out[keys[i] as string] = base[keys[i] as string];
  keys = Object.keys(patch);
  for (let i = 0; i < keys.length; i += 1) {
    const k = keys[i] as string;
    if (patch[k] !== undefined) out[k] = merge(out[k], patch[k]);
  }
  return out;
}

/**
 * The campaign as a visitor in an A/B test's arm gets it: the arm's `popup` merged into the
 * popup, its form texts (`popup.design.formTitle`, `formSubtitle`, `submitButtonText`) into the
 * email capture as the server builds it, and `aiSettings.initialMessage` as the greeting (blank:
 * the default greeting). `exitIntent` is merged too (the loader has already used it). `campaign`
 * is not changed; without overrides it is answered as it is.
 */
export function withOverrides(
  campaign: PublicCampaign,
  overrides: Overrides | null | undefined,
): PublicCampaign {
  if (!overrides || typeof overrides !== "object") return campaign;
  const c = merge(campaign, {
    popup: overrides.popup,
    exitIntent: overrides.exitIntent,
  }) as PublicCampaign;
  const d = overrides.popup?.design;
  if (d && typeof d === "object") {
    const merged = c.popup.design;
    c.emailCapture = {
      ...c.emailCapture,
      title: "formTitle" in d ? merged.formTitle : c.emailCapture.title,
      subtitle: "formSubtitle" in d ? merged.formSubtitle : c.emailCapture.subtitle,
      buttonText: "submitButtonText" in d ? merged.submitButtonText : c.emailCapture.buttonText,
    };
  }
  const greeting = overrides.aiSettings?.initialMessage;
  if (typeof greeting === "string") c.greeting = greeting.trim() || DEFAULT_GREETING;
  return c;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const keys = Object.keys(attrs);
  for (let i = 0; i < keys.length; i += 1) {
    const k = keys[i] as string;
    node.setAttribute(k, attrs[k] as string);
  }
  // Owner and visitor text: its own characters set its direction.
  if (text !== undefined || tag === "input") node.setAttribute("dir", "auto");
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The popup's layout direction from the owner's title: right to left when its first strong
 * character is Hebrew, Arabic, Syriac, Thaana or N'Ko; never the host page's `dir`.
 */
export function textDirection(text: string): "ltr" | "rtl" {
  return /^\P{L}*[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u.test(
    text,
  )
    ? "rtl"
    : "ltr";
}

/** A stylesheet the shadow root adopts (no `<style>` element: strict CSPs allow it). */
function sheet(text: string): CSSStyleSheet {
  const s = new CSSStyleSheet();
  s.replaceSync(text);
  return s;
}

/**
 * The owner's colours as the popup uses them: the header's gradient from `primary` to
 * `secondary` with `onHead` text, and `onPrimary` text on the primary colour (the submit button,
 * the visitor's bubbles). The designer shows their contrast from here too.
 */
export function popupColours(p: PublicCampaign["popup"]) {
  const primary = p.design.primaryColor || p.buttonColor || "#ff6b6b";
  const secondary = p.design.secondaryColor || primary;
  return {
    primary,
    secondary,
    onHead: readableText(primary, secondary),
    onPrimary: readableText(primary),
  };
}

function css(c: PublicCampaign): string {
  const p = c.popup;
  const d = p.design;
  const [width, height] = SIZES[d.popupSize] ?? [560, 680];
  const { primary, secondary, onHead, onPrimary } = popupColours(p);
  const dark = onHead !== "#ffffff";
  const font = (d.fontFamily || "Inter").replace(/[^A-Za-z0-9 ,-]/g, "");
  return `
:host{all:initial!important;display:block!important;position:fixed!important;top:0!important;left:0!important;width:0!important;height:0!important;overflow:visible!important;visibility:visible!important;z-index:2147483647!important}
*{box-sizing:border-box}
dialog{position:fixed;inset:auto;margin:0;padding:0;border:0;max-width:none;max-height:none;display:flex;flex-direction:column;width:${width}px;height:${height}px;background:${p.backgroundColor || "#fff"};color:${p.textColor || "#1f2937"};border-radius:${d.borderRadius}px;overflow:hidden;overscroll-behavior:contain;font-family:${font},system-ui,sans-serif;font-size:15px;font-weight:400;font-style:normal;font-variant:normal;line-height:1.45;letter-spacing:normal;word-spacing:normal;text-transform:none;text-indent:0;text-shadow:none;text-align:start;white-space:normal;box-shadow:0 24px 60px rgba(0,0,0,.3);outline:0}
dialog:not([open]){display:none}
dialog::backdrop{background:rgba(15,23,42,.55)}
.head{padding:${Math.min(d.padding, 40)}px;background:linear-gradient(135deg,${primary},${secondary});color:${onHead};position:relative}
.title{margin:0;font-size:24px;font-weight:800;padding-inline-end:36px}
.sub{margin:4px 0 0;font-size:14px}
.close{position:absolute;top:10px;inset-inline-end:10px;width:36px;height:36px;border:0;border-radius:50%;background:${dark ? "rgba(0,0,0,.12)" : "rgba(255,255,255,.2)"};color:${onHead};font-size:22px;cursor:pointer;line-height:1}
.close:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.badges{display:flex;flex-wrap:wrap;gap:6px;margin-top:10px}
.badge{background:#fff;color:#111;border-radius:4px;padding:2px 8px;font-size:12px;font-weight:600}
.body{flex:1;display:flex;flex-direction:column;gap:10px;padding:16px;overflow-y:auto;overscroll-behavior:contain;min-height:0}
.log{flex:1;overflow-y:auto;overscroll-behavior:contain;display:flex;flex-direction:column;gap:8px;min-height:60px}
.msg{max-width:85%;padding:8px 12px;border-radius:10px;white-space:pre-wrap;word-wrap:break-word;font-size:14px}
.assistant{background:#f1f3f5;color:#111;align-self:flex-start}
.user{background:${primary};color:${onPrimary};align-self:flex-end}
.note{font-size:13px;color:#b42318}
.card{border:1px solid #dee2e6;border-radius:10px;padding:12px;background:#fff;color:#111}
.card h3{margin:0;font-size:16px}
.card p{margin:2px 0 8px;font-size:13px;color:#555}
.row{display:flex;gap:6px}
.card .row{flex-wrap:wrap}.card .row input{min-width:9em}
.col{display:flex;flex-direction:column;gap:6px}
input{flex:1;min-width:0;margin:0;padding:9px 10px;border:1px solid #ced4da;border-radius:8px;font:inherit;font-size:14px;color:#111;background:#fff}
button{margin:0;font:inherit;font-size:14px;cursor:pointer}
.primary{border:0;border-radius:8px;padding:9px 14px;background:${primary};color:${onPrimary};font-weight:600}
.secondary{border:1px solid #ced4da;border-radius:8px;padding:9px 14px;background:#fff;color:#111}
button:disabled{opacity:.6;cursor:default}
.err{color:#b42318;font-size:12px;margin:0}
.hp{position:absolute;left:-9999px;top:0;width:1px;height:1px;overflow:hidden}
@media (max-width:480px){.title{font-size:20px}}
.short .head{padding:12px 16px}.short .title{font-size:18px}.short .sub,.short .badges,.short .card p{display:none}.short .body{padding:10px 16px}
`;
}

async function errorMessage(res: Response): Promise<{ message: string; form?: PublicForm }> {
  try {
    const body = (await res.json()) as { message?: string; form?: PublicForm };
    return { message: body.message || "Something went wrong. Please try again.", form: body.form };
  } catch {
    return { message: "Something went wrong. Please try again." };
  }
}

/** Opens the popup; false when it cannot be shown (the console says why). */
export function open(o: OpenOptions): boolean {
  const c = withOverrides(o.campaign, o.variant?.overrides);
  const d = c.popup.design;
  const [fullWidth, fullHeight] = SIZES[d.popupSize] ?? [560, 680];
  const desktop = o.device === "desktop";
  const pv = o.preview;
  const scrollX = window.scrollX;
  const scrollY = window.scrollY;
  const previousFocus = document.activeElement as HTMLElement | null;

  const postJson = (url: string, body: unknown, accept = "application/json") =>
    o.realm.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: toJson(body),
      credentials: "omit",
    });

  const host = document.createElement("convertassist-widget");
  const root = host.attachShadow({ mode: "open" });
  // The popup's look, and its size and place (rewritten by fit()).
  let geometry: CSSStyleSheet;
  try {
    geometry = sheet("");
    root.adoptedStyleSheets = [sheet(css(c)), geometry];
  } catch (e) {
    console.warn(
      "ConvertAssist: the popup is not shown because this browser cannot style it " +
        "(constructable stylesheets in a shadow root are not supported).",
      e,
    );
    o.onClose();
    return false;
  }
  const titleId = "ca-title";
  const title = d.headerTitle || c.popup.title;
  const dialog = el("dialog", {
    "aria-labelledby": titleId,
    tabindex: "-1",
    dir: textDirection(title),
  });
  const head = el("div", { class: "head" });
  head.append(
    el("h2", { class: "title", id: titleId }, title),
    el("p", { class: "sub" }, d.headerSubtitle || c.popup.message),
  );
  const close = el("button", { class: "close", type: "button", "aria-label": "Close" }, "×");
  if (c.popup.showCloseButton !== false) head.append(close);
  if (d.showTrustBadges && d.trustBadges.length) {
    const badges = el("div", { class: "badges" });
    for (let i = 0; i < d.trustBadges.length; i += 1) {
      const b = d.trustBadges[i] as { icon: string; text: string };
      badges.append(el("span", { class: "badge" }, `${b.icon} ${b.text}`));
    }
    head.append(badges);
  }
  const body = el("div", { class: "body" });
  const log = el("div", { class: "log", role: "log", "aria-live": "polite", "aria-label": "Chat" });
  const emailCard = formCard(c.emailCapture, true);
  const chatRow = el("form", { class: "row", "aria-label": "Chat with us" });
  const input = el("input", {
    type: "text",
    name: "message",
    placeholder: "Type your message…",
    "aria-label": "Your message",
    maxlength: "1000",
    autocomplete: "off",
  });
  const send = el("button", { class: "secondary", type: "submit" }, "Send");
  chatRow.append(input, send);
  body.append(log, emailCard, chatRow);
  dialog.append(head, body);
  root.append(dialog);

  /** Centres the popup in the visual viewport (what is on screen), 8 px from its edges. */
  function fit(): void {
    if (pv) {
      geometry.replaceSync(`dialog{width:${fullWidth}px;height:${fullHeight}px;left:0;top:0}`);
      return;
    }
    const v = window.visualViewport;
    const vw = v ? v.width : document.documentElement.clientWidth;
    const vh = v ? v.height : window.innerHeight;
    const w = Math.min(fullWidth, vw - 16);
    // Phones (as before): the whole height of the screen.
    const h = vw <= 480 ? vh - 16 : Math.min(fullHeight, vh - 16);
    geometry.replaceSync(
      `dialog{width:${w}px;height:${h}px;left:${(v ? v.offsetLeft : 0) + (vw - w) / 2}px;` +
        `top:${(v ? v.offsetTop : 0) + (vh - h) / 2}px}`,
    );
    // Little room (an on-screen keyboard, a zoom): a compact header, the field being typed in
    // kept in view.
    dialog.className = h < 560 ? "short" : "";
    const a = root.activeElement;
    if (a && body.contains(a)) {
      const r = a.getBoundingClientRect();
      const b = body.getBoundingClientRect();
      if (r.bottom > b.bottom) body.scrollTop += r.bottom - b.bottom + 8;
      else if (r.top < b.top) body.scrollTop -= b.top - r.top + 8;
    }
  }
  fit();
  (pv ? pv.container : document.body || document.documentElement).append(host);
  // Styled, or not at all: never a bare form in the page's flow.
  if (
    getComputedStyle(host).position !== "fixed" ||
    getComputedStyle(dialog).position !== "fixed"
  ) {
    host.remove();
    console.warn(
      "ConvertAssist: the popup is not shown because its styles did not apply on this page.",
    );
    o.onClose();
    return false;
  }

  let conversationId: string | null = null;
  let ended = false;

  function bubble(role: "assistant" | "user", text: string): HTMLElement {
    const b = el("div", { class: `msg ${role}` }, text);
    log.append(b);
    log.scrollTop = log.scrollHeight;
    return b;
  }

  function note(text: string): void {
    log.append(el("p", { class: "note", role: "alert" }, text));
    log.scrollTop = log.scrollHeight;
  }

  function formCard(form: PublicForm, capture = false): HTMLElement {
    const card = el("form", {
      class: "card",
      "data-form-id": form.id,
      "aria-label": form.title || form.name,
      novalidate: "",
    });
    if (form.title) card.append(el("h3", {}, form.title));
    if (form.subtitle) card.append(el("p", {}, form.subtitle));
    const fields = el("div", { class: capture ? "row" : "col" });
    const inputs: HTMLInputElement[] = [];
    for (let n = 0; n < form.fields.length; n += 1) {
      const f = form.fields[n] as PublicForm["fields"][number];
      const i = el("input", {
        name: f.name,
        type: f.type === "email" ? "email" : f.type === "phone" ? "tel" : "text",
        placeholder: f.placeholder || f.label,
        "aria-label": f.label || f.name,
        maxlength: "500",
      });
      if (f.required) i.required = true;
      inputs[n] = i;
      fields.append(i);
    }
    const honeypot = el("input", {
      class: "hp",
      name: "website",
      tabindex: "-1",
      autocomplete: "off",
      "aria-hidden": "true",
    });
    const submit = el("button", { class: "primary", type: "submit" }, form.buttonText || "Submit");
    fields.append(submit);
    const error = el("p", { class: "err", role: "alert" });
    card.append(fields, honeypot, error);
    card.addEventListener("submit", (e) => {
      e.preventDefault();
      void (async () => {
        error.textContent = "";
        const values: Record<string, string> = {};
        for (let n = 0; n < inputs.length; n += 1) {
          const i = inputs[n] as HTMLInputElement;
          values[i.name] = i.value;
        }
        for (let n = 0; n < form.fields.length; n += 1) {
          const f = form.fields[n] as PublicForm["fields"][number];
          if (f.required && !values[f.name]?.trim()) {
            error.textContent = `${f.label || f.name} is required`;
            return;
          }
        }
        submit.disabled = true;
        try {
          const id = await ensureConversation();
          const res = await postJson(`${o.api}/api/widget/conversations/${id}/forms`, {
            formId: form.id,
            values,
            website: honeypot.value,
          });
          if (!res.ok) {
            const err = await errorMessage(res);
            error.textContent = err.message;
            submit.disabled = false;
            return;
          }
          const out = (await res.json()) as { message: string; followUpMessage?: string };
          card.replaceChildren(el("p", { role: "status" }, out.message));
          o.onConverted();
          if (out.followUpMessage) bubble("assistant", out.followUpMessage);
        } catch (e) {
          error.textContent =
            pv && e instanceof Error
              ? e.message
              : "Could not send. Please check your connection and try again.";
          submit.disabled = false;
        }
      })();
    });
    return card;
  }

  async function ensureConversation(): Promise<string> {
    if (conversationId) return conversationId;
    if (pv) throw new Error("This is a preview: nothing is sent.");
    const res = await postJson(`${o.api}/api/widget/conversations`, {
      campaignId: c.id,
      visitorId: o.visitorId,
      sessionId: o.sessionId,
      variantId: o.variant?.id,
      userContext: { deviceType: o.device, currentUrl: location.href.slice(0, 1000) },
    });
    if (!res.ok) throw new Error((await errorMessage(res)).message);
    const out = (await res.json()) as {
      conversationId: string;
      greeting: string;
      aiAvailable: boolean;
      notice?: string;
      form?: PublicForm;
    };
    conversationId = out.conversationId;
    if (!out.aiAvailable) {
      if (out.notice) bubble("assistant", out.notice);
      if (out.form && out.form.id !== c.emailCapture.id) log.append(formCard(out.form));
    }
    return out.conversationId;
  }

  async function ask(text: string): Promise<void> {
    bubble("user", text);
    const answer = bubble("assistant", "…");
    answer.setAttribute("aria-busy", "true");
    try {
      const id = await ensureConversation();
      const res = await postJson(
        `${o.api}/api/widget/conversations/${id}/messages`,
        { message: text },
        "text/event-stream",
      );
      if (!res.ok || !res.body) {
        const err = await errorMessage(res);
        answer.remove();
        note(err.message);
        if (res.status === 409) conversationId = null;
        if (err.form) log.append(formCard(err.form));
        return;
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      let text2 = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (!event || !data) continue;
          const payload = (await o.realm.parse(data)) as {
            text?: string;
            reply?: string;
            message?: string;
            form?: PublicForm | null;
          };
          if (event === "token") {
            text2 += payload.text ?? "";
            answer.textContent = text2;
          } else if (event === "done") {
            answer.textContent = payload.reply ?? text2;
            if (payload.form) log.append(formCard(payload.form));
          } else if (event === "error") {
            note(payload.message ?? "Something went wrong.");
          }
          log.scrollTop = log.scrollHeight;
        }
      }
    } catch (e) {
      answer.remove();
      note(e instanceof Error && e.message ? e.message : "Could not reach the assistant.");
    } finally {
      answer.removeAttribute("aria-busy");
    }
  }

  chatRow.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || ended) return;
    input.value = "";
    send.disabled = true;
    void ask(text).finally(() => {
      send.disabled = false;
      input.focus({ preventScroll: true });
    });
  });

  /** Whether `e` scrolls the chat log (which can move that way) rather than the page. */
  function scrollsLog(e: Event, dy: number): boolean {
    const path = e.composedPath();
    for (let i = 0; i < path.length; i += 1) {
      if (path[i] !== log) continue;
      return dy < 0 ? log.scrollTop > 0 : log.scrollTop + log.clientHeight < log.scrollHeight - 1;
    }
    return false;
  }
  const onWheel = (e: WheelEvent) => {
    if (e.cancelable && !scrollsLog(e, e.deltaY)) e.preventDefault();
  };
  let touchY = 0;
  const onTouchStart = (e: TouchEvent) => {
    touchY = e.touches[0]?.clientY ?? 0;
  };
  const onTouchMove = (e: TouchEvent) => {
    const y = e.touches[0]?.clientY ?? touchY;
    if (e.cancelable && !scrollsLog(e, touchY - y)) e.preventDefault();
    touchY = y;
  };
  // Keys that scroll (Space, arrows, PageUp/PageDown, Home/End) move no page behind the popup;
  // in its fields they keep editing, and Space still presses its buttons.
  const onKey = (e: KeyboardEvent) => {
    if (!/^( |Spacebar|Arrow(Up|Down)|Page(Up|Down)|Home|End)$/.test(e.key)) return;
    const target = e.composedPath()[0] as Element | undefined;
    const tag = target?.localName;
    if (tag === "input" || (tag === "button" && e.key === " ")) return;
    if (!scrollsLog(e, /Up|Home/.test(e.key) ? -1 : 1)) e.preventDefault();
  };
  // Whatever still moves the page (the flick that opened the popup, its momentum, a script):
  // it is put back at once.
  const hold = () => {
    if (window.scrollX !== scrollX || window.scrollY !== scrollY)
      window.scrollTo({ left: scrollX, top: scrollY, behavior: "instant" });
  };
  const listen = (add: boolean) => {
    const m = add ? "addEventListener" : "removeEventListener";
    const active = { capture: true, passive: false };
    window[m]("wheel", onWheel as EventListener, active);
    window[m]("touchstart", onTouchStart as EventListener, active);
    window[m]("touchmove", onTouchMove as EventListener, active);
    window[m]("keydown", onKey as EventListener, true);
    window[m]("scroll", hold);
    window[m]("resize", fit);
    window.visualViewport?.[m]("resize", fit);
    window.visualViewport?.[m]("scroll", fit);
  };

  function shut(): void {
    if (ended) return;
    ended = true;
    listen(false);
    if (dialog.open) dialog.close();
    host.remove();
    hold();
    if (conversationId) {
      void o.realm
        .fetch(`${o.api}/api/widget/conversations/${conversationId}/dismiss`, {
          method: "POST",
          credentials: "omit",
          keepalive: true,
        })
        .catch(() => undefined);
    }
    o.onClose();
    if (previousFocus && document.activeElement !== previousFocus)
      previousFocus.focus?.({ preventScroll: true });
  }

  function focusables(): HTMLElement[] {
    const all = root.querySelectorAll<HTMLElement>(
      "button:not([disabled]), input:not([tabindex='-1'])",
    );
    const out: HTMLElement[] = [];
    for (let i = 0; i < all.length; i += 1) out[i] = all[i] as HTMLElement;
    return out;
  }

  if (pv) {
    // In its box in the dashboard: no modal, no focus taken, the dashboard's scrolling left alone.
    dialog.setAttribute("open", "");
    bubble("assistant", c.greeting);
    const messages = pv.messages ?? [];
    for (let i = 0; i < messages.length; i += 1) {
      const m = messages[i] as { role: "assistant" | "user"; text: string };
      bubble(m.role, m.text);
    }
    return true;
  }
  // Focus stays in the popup (the top layer makes the page inert; this also keeps it off the
  // browser's own controls).
  dialog.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const items = focusables();
    if (!items.length) return;
    const first = items[0] as HTMLElement;
    const last = items[items.length - 1] as HTMLElement;
    const active = root.activeElement as HTMLElement | null;
    let inside = false;
    for (let i = 0; i < items.length; i += 1) if (items[i] === active) inside = true;
    if (e.shiftKey && (active === first || !inside)) {
      e.preventDefault();
      last.focus({ preventScroll: true });
    } else if (!e.shiftKey && (active === last || !inside)) {
      e.preventDefault();
      first.focus({ preventScroll: true });
    }
  });
  // Escape (the dialog's cancel), whatever the page does with the key.
  dialog.addEventListener("cancel", (e) => {
    e.preventDefault();
    shut();
  });
  dialog.addEventListener("close", shut);
  close.addEventListener("click", shut);
  // A click on the dimmed page around the popup (the backdrop) closes it.
  dialog.addEventListener("click", (e) => {
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    const x = e.clientX;
    const y = e.clientY;
    if (x < r.left || x > r.right || y < r.top || y > r.bottom) shut();
  });
  listen(true);
  try {
    dialog.showModal();
  } catch {
    dialog.setAttribute("open", "");
  }
  bubble("assistant", c.greeting);
  // On a desktop straight into the message field; on a touch screen the popup itself, so the
  // on-screen keyboard opens only when the visitor taps the field.
  (desktop ? input : dialog).focus({ preventScroll: true });
  return true;
}

/** Never called by a preview: it sends nothing. */
function inert(): Promise<Response> {
  return Promise.reject(new Error("This is a preview: nothing is sent."));
}

/**
 * The dashboard's preview of `campaign`: this popup, drawn at its full size inside `container`
 * (which must be its containing block for fixed positioning, e.g. by a `transform`), with
 * `messages` under the greeting. With `overrides`, an A/B test arm's (see `Overrides` in
 * types.ts), it is drawn as that arm's visitors see it. Not modal, takes no focus, sends nothing
 * (so no arm counts anything). Clear `container` to remove it. False when it cannot be drawn
 * (the console says why).
 */
export function preview(
  container: HTMLElement,
  campaign: PublicCampaign,
  messages: PreviewOptions["messages"] = [],
  overrides?: Overrides,
): boolean {
  return open({
    api: "",
    realm: { fetch: inert, parse: (t) => JSON.parse(t) as unknown },
    campaign,
    visitorId: "preview",
    sessionId: "preview",
    device: "desktop",
    variant: overrides && { id: "preview", overrides },
    onConverted: () => undefined,
    onClose: () => undefined,
    preview: { container, messages },
  });
}
