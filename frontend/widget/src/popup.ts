/**
 * The popup and chat, imported by the loader when exit intent fires. Renders
 * inside a Shadow DOM so the host page's CSS cannot reach it; every
 * piece of owner or visitor text goes in through `textContent`.
 */
import type { OpenOptions, PublicForm } from "./types";

const SIZES: Record<string, [number, number]> = {
  small: [480, 580],
  medium: [560, 680],
  large: [640, 780],
};

type Attrs = Record<string, string>;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function css(o: OpenOptions): string {
  const p = o.campaign.popup;
  const d = p.design;
  const [width, height] = SIZES[d.popupSize] ?? [560, 680];
  const primary = d.primaryColor || p.buttonColor || "#ff6b6b";
  const secondary = d.secondaryColor || primary;
  const font = (d.fontFamily || "Inter").replace(/[^A-Za-z0-9 ,-]/g, "");
  return `
:host{all:initial}
*{box-sizing:border-box}
.overlay{position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;background:rgba(15,23,42,.55);padding:8px}
.dialog{display:flex;flex-direction:column;width:${width}px;max-width:100%;height:${height}px;max-height:calc(100vh - 16px);background:${p.backgroundColor || "#fff"};color:${p.textColor || "#1f2937"};border-radius:${d.borderRadius}px;overflow:hidden;font-family:${font},system-ui,sans-serif;font-size:15px;line-height:1.45;box-shadow:0 24px 60px rgba(0,0,0,.3);text-align:left}
.head{padding:${Math.min(d.padding, 40)}px;background:linear-gradient(135deg,${primary},${secondary});color:#fff;position:relative}
.title{margin:0;font-size:24px;font-weight:800;padding-right:36px}
.sub{margin:4px 0 0;opacity:.9;font-size:14px}
.close{position:absolute;top:10px;right:10px;width:36px;height:36px;border:0;border-radius:50%;background:rgba(255,255,255,.2);color:#fff;font-size:22px;cursor:pointer;line-height:1}
.close:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.badges{display:flex;flex-wrap:wrap;gap:6px;margin-top:10px}
.badge{background:#fff;color:#111;border-radius:4px;padding:2px 8px;font-size:12px;font-weight:600}
.body{flex:1;display:flex;flex-direction:column;gap:10px;padding:16px;overflow:hidden;min-height:0}
.log{flex:1;overflow-y:auto;display:flex;flex-direction:column;gap:8px;min-height:60px}
.msg{max-width:85%;padding:8px 12px;border-radius:10px;white-space:pre-wrap;word-wrap:break-word;font-size:14px}
.assistant{background:#f1f3f5;color:#111;align-self:flex-start}
.user{background:${primary};color:#fff;align-self:flex-end}
.note{font-size:13px;color:#b42318}
.card{border:1px solid #dee2e6;border-radius:10px;padding:12px;background:#fff;color:#111}
.card h3{margin:0;font-size:16px}
.card p{margin:2px 0 8px;font-size:13px;color:#555}
.row{display:flex;gap:6px}
.col{display:flex;flex-direction:column;gap:6px}
input{flex:1;min-width:0;padding:9px 10px;border:1px solid #ced4da;border-radius:8px;font:inherit;font-size:14px;color:#111;background:#fff}
button{font:inherit;font-size:14px;cursor:pointer}
.primary{border:0;border-radius:8px;padding:9px 14px;background:${primary};color:#fff;font-weight:600}
.secondary{border:1px solid #ced4da;border-radius:8px;padding:9px 14px;background:#fff;color:#111}
button:disabled{opacity:.6;cursor:default}
.err{color:#b42318;font-size:12px;margin:0}
.hp{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}
@media (max-width:480px){.title{font-size:20px}.dialog{height:calc(100vh - 16px)}}
`;
}

async function postJson(
  url: string,
  body: unknown,
  accept = "application/json",
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify(body),
    credentials: "omit",
  });
}

async function errorMessage(res: Response): Promise<{ message: string; form?: PublicForm }> {
  try {
    const body = (await res.json()) as { message?: string; form?: PublicForm };
    return { message: body.message || "Something went wrong. Please try again.", form: body.form };
  } catch {
    return { message: "Something went wrong. Please try again." };
  }
}

export function open(o: OpenOptions): void {
  const c = o.campaign;
  const d = c.popup.design;
  const host = document.createElement("convertassist-widget");
  const root = host.attachShadow({ mode: "open" });
  root.appendChild(el("style", {}, css(o)));
  const overlay = el("div", { class: "overlay" });
  const titleId = "ca-title";
  const dialog = el("div", {
    class: "dialog",
    role: "dialog",
    "aria-modal": "true",
    "aria-labelledby": titleId,
  });
  const head = el("div", { class: "head" });
  head.append(
    el("h2", { class: "title", id: titleId }, d.headerTitle || c.popup.title),
    el("p", { class: "sub" }, d.headerSubtitle || c.popup.message),
  );
  const close = el("button", { class: "close", type: "button", "aria-label": "Close" }, "×");
  if (c.popup.showCloseButton !== false) head.append(close);
  if (d.showTrustBadges && d.trustBadges.length) {
    const badges = el("div", { class: "badges" });
    for (const b of d.trustBadges)
      badges.append(el("span", { class: "badge" }, `${b.icon} ${b.text}`));
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
  overlay.append(dialog);
  root.append(overlay);
  document.body.append(host);

  let conversationId: string | null = null;
  let ended = false;
  const previousFocus = document.activeElement as HTMLElement | null;

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
    for (const f of form.fields) {
      const i = el("input", {
        name: f.name,
        type: f.type === "email" ? "email" : f.type === "phone" ? "tel" : "text",
        placeholder: f.placeholder || f.label,
        "aria-label": f.label || f.name,
        maxlength: "500",
      });
      if (f.required) i.required = true;
      inputs.push(i);
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
        for (const i of inputs) values[i.name] = i.value;
        const missing = form.fields.find((f) => f.required && !values[f.name]?.trim());
        if (missing) {
          error.textContent = `${missing.label || missing.name} is required`;
          return;
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
        } catch {
          error.textContent = "Could not send. Please check your connection and try again.";
          submit.disabled = false;
        }
      })();
    });
    return card;
  }

  async function ensureConversation(): Promise<string> {
    if (conversationId) return conversationId;
    const res = await postJson(`${o.api}/api/widget/conversations`, {
      campaignId: c.id,
      visitorId: o.visitorId,
      sessionId: o.sessionId,
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
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      let text2 = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (!event || !data) continue;
          const payload = JSON.parse(data) as {
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
      input.focus();
    });
  });

  function shut(): void {
    if (ended) return;
    ended = true;
    document.removeEventListener("keydown", onKey, true);
    host.remove();
    if (conversationId) {
      void fetch(`${o.api}/api/widget/conversations/${conversationId}/dismiss`, {
        method: "POST",
        credentials: "omit",
        keepalive: true,
      }).catch(() => undefined);
    }
    o.onClose();
    previousFocus?.focus?.();
  }

  function focusables(): HTMLElement[] {
    return Array.from(
      root.querySelectorAll<HTMLElement>("button:not([disabled]), input:not([tabindex='-1'])"),
    );
  }

  function onKey(e: KeyboardEvent): void {
    if (e.key === "Escape") {
      e.preventDefault();
      shut();
      return;
    }
    if (e.key !== "Tab") return;
    const items = focusables();
    if (!items.length) return;
    const first = items[0] as HTMLElement;
    const last = items[items.length - 1] as HTMLElement;
    const active = root.activeElement as HTMLElement | null;
    const inside = active ? items.includes(active) : false;
    if (e.shiftKey && (active === first || !inside)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !inside)) {
      e.preventDefault();
      first.focus();
    }
  }

  close.addEventListener("click", shut);
  overlay.addEventListener("click", (e) => {
    if (e.target === overlay) shut();
  });
  document.addEventListener("keydown", onKey, true);
  bubble("assistant", c.greeting);
  input.focus();
}
