import { expect, test } from "@playwright/test";
import { WebSocket } from "ws";
import { FIRST_PORT, PORT_COUNT, startIdeStandIn } from "./ide-standin";

/** Sends one request frame and collects frames with its id up to the response or error. */
async function call(port: number, method: string, payload: unknown) {
  const ws = new WebSocket(`ws://localhost:${port}`);
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  const id = Math.random().toString(36).substring(2, 18);
  const frames: Record<string, unknown>[] = [];
  await new Promise<void>((resolve) => {
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (frame.id !== id) return;
      frames.push(frame);
      if (frame.messageType === "response" || frame.messageType === "error") resolve();
    });
    ws.send(JSON.stringify({ id, messageType: "request", method, payload }));
  });
  ws.close();
  return frames;
}

test("the IDE stand-in answers discovery, session info and prompts as the extension does", async () => {
  const ide = await startIdeStandIn({ displayName: "protocol check" });
  try {
    expect(ide.port).toBeGreaterThanOrEqual(FIRST_PORT);
    expect(ide.port).toBeLessThan(FIRST_PORT + PORT_COUNT);

    const ping = await fetch(`http://localhost:${ide.port}/ping/stagewise`);
    expect(ping.status).toBe(200);
    expect(ping.headers.get("access-control-allow-origin")).toBe("*");
    expect(await ping.text()).toBe("stagewise");
    expect((await fetch(`http://127.0.0.1:${ide.port}/elsewhere`)).status).toBe(404);

    const [info] = await call(ide.port, "getSessionInfo", {});
    expect(info).toMatchObject({
      messageType: "response",
      method: "getSessionInfo",
      payload: {
        sessionId: ide.sessionId,
        appName: expect.any(String),
        displayName: "protocol check",
        port: ide.port,
      },
    });

    const sent = await call(ide.port, "triggerAgentPrompt", {
      sessionId: ide.sessionId,
      prompt: "<request>…</request>",
      mode: "agent",
    });
    expect(sent.map((f) => f.messageType)).toEqual(["update", "response"]);
    expect(sent[1]).toMatchObject({ payload: { result: { success: true } } });
    expect(await ide.nextPrompt(100)).toMatchObject({ prompt: "<request>…</request>" });

    const elsewhere = await call(ide.port, "triggerAgentPrompt", {
      sessionId: "another-window",
      prompt: "x",
    });
    expect(elsewhere[0]).toMatchObject({
      payload: { result: { success: false, errorCode: "session_mismatch" } },
    });
    const unknown = await call(ide.port, "getSelectedModel", {});
    expect(unknown[0]).toMatchObject({
      messageType: "error",
      error: { message: expect.any(String) },
    });
    expect(ide.prompts).toHaveLength(1);
  } finally {
    await ide.close();
  }
});
