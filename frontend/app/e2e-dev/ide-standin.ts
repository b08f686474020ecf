// A local stand-in of the stagewise IDE extension, for tests. It speaks what the
// installed toolbar (@stagewise/toolbar 0.4.9, dist/panel-*.js) speaks:
//
// - discovery: the toolbar asks `GET http://localhost:{port}/ping/stagewise` for
//   ports 5746, 5747, … (300 ms each, stops after two failures in a row) and wants
//   200 with the plain text `stagewise`;
// - RPC: JSON text frames over a WebSocket at `ws://localhost:{port}` (root path):
//   `{id, messageType: "request" | "response" | "update", method, payload}` and
//   `{id, messageType: "error", error: {message}}`;
// - `getSessionInfo` `{}` → `{sessionId?, appName, displayName, port}`;
// - `triggerAgentPrompt` `{sessionId?, prompt, model?, files?, mode?, images?}` →
//   updates `{sessionId?, updateText}` → `{sessionId?, result: {success, error?,
//   errorCode?: "session_mismatch", output?}}`.
//
// It binds loopback only and records every prompt it receives.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";

export const FIRST_PORT = 5746;
export const PORT_COUNT = 10;

export interface ReceivedPrompt {
  sessionId?: string;
  prompt: string;
  model?: string;
  files?: string[];
  mode?: string;
  images?: string[];
}

export interface IdeStandIn {
  port: number;
  sessionId: string;
  displayName: string;
  /** Prompts received through `triggerAgentPrompt`, oldest first. */
  prompts: ReceivedPrompt[];
  /** How many times a toolbar asked `getSessionInfo`. */
  sessionInfoRequests: () => number;
  /** Resolves with the next prompt (or one already received and not yet taken). */
  nextPrompt: (timeoutMs?: number) => Promise<ReceivedPrompt>;
  close: () => Promise<void>;
}

interface Frame {
  id?: unknown;
  messageType?: unknown;
  method?: unknown;
  payload?: unknown;
}

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "*",
};

function answerHttp(req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? "/").split("?")[0];
  if (req.method === "OPTIONS") {
    res.writeHead(204, CORS).end();
  } else if (req.method === "GET" && path === "/ping/stagewise") {
    res.writeHead(200, { ...CORS, "Content-Type": "text/plain" }).end("stagewise");
  } else {
    res.writeHead(404, { ...CORS, "Content-Type": "text/plain" }).end("not found");
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      server.off("listening", onListening);
      reject(err);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Starts the stand-in on the first free port of 5746–5755, on 127.0.0.1 and
 * (when the machine has IPv6) ::1, since the toolbar asks for `localhost`.
 */
export async function startIdeStandIn(
  options: { displayName?: string; appName?: string } = {},
): Promise<IdeStandIn> {
  const sessionId = randomUUID();
  const displayName = options.displayName ?? "ConvertAssist stand-in";
  const appName = options.appName ?? "IDE stand-in";
  const prompts: ReceivedPrompt[] = [];
  let taken = 0;
  let sessionInfo = 0;
  const waiters: (() => void)[] = [];
  const wss = new WebSocketServer({ noServer: true });
  let port = 0;

  const send = (ws: WebSocket, frame: object) => ws.send(JSON.stringify(frame));

  wss.on("connection", (ws) => {
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      let frame: Frame;
      try {
        frame = JSON.parse(data.toString()) as Frame;
      } catch {
        return;
      }
      if (frame.messageType !== "request" || typeof frame.id !== "string") return;
      const { id, method } = frame;
      const payload = (frame.payload ?? {}) as Record<string, unknown>;
      if (method === "getSessionInfo") {
        sessionInfo += 1;
        send(ws, {
          id,
          messageType: "response",
          method,
          payload: { sessionId, appName, displayName, port },
        });
      } else if (method === "triggerAgentPrompt") {
        if (typeof payload.prompt !== "string") {
          send(ws, { id, messageType: "error", error: { message: "prompt must be a string" } });
          return;
        }
        if (payload.sessionId !== undefined && payload.sessionId !== sessionId) {
          send(ws, {
            id,
            messageType: "response",
            method,
            payload: {
              sessionId,
              result: {
                success: false,
                error: "This prompt was meant for another IDE window.",
                errorCode: "session_mismatch",
              },
            },
          });
          return;
        }
        prompts.push(payload as unknown as ReceivedPrompt);
        for (const wake of waiters.splice(0)) wake();
        send(ws, {
          id,
          messageType: "update",
          method,
          payload: { sessionId, updateText: "Prompt received by the stand-in." },
        });
        send(ws, {
          id,
          messageType: "response",
          method,
          payload: { sessionId, result: { success: true, output: "Recorded." } },
        });
      } else {
        send(ws, {
          id,
          messageType: "error",
          error: { message: `Method not found: ${String(method)}` },
        });
      }
    });
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  };

  let servers: Server[] = [];
  for (let candidate = FIRST_PORT; candidate < FIRST_PORT + PORT_COUNT; candidate += 1) {
    const v4 = createServer(answerHttp).on("upgrade", onUpgrade);
    try {
      await listen(v4, candidate, "127.0.0.1");
    } catch {
      continue;
    }
    const v6 = createServer(answerHttp).on("upgrade", onUpgrade);
    try {
      await listen(v6, candidate, "::1");
      servers = [v4, v6];
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE") {
        // Something else answers on ::1 at this port; the toolbar might reach it instead.
        await closeServer(v4);
        continue;
      }
      servers = [v4]; // No IPv6 loopback here: 127.0.0.1 alone.
    }
    port = candidate;
    break;
  }
  if (port === 0) {
    throw new Error(`no free port in ${FIRST_PORT}–${FIRST_PORT + PORT_COUNT - 1}`);
  }

  return {
    port,
    sessionId,
    displayName,
    prompts,
    sessionInfoRequests: () => sessionInfo,
    nextPrompt: (timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const take = () => {
          const prompt = prompts[taken];
          if (!prompt) return false;
          taken += 1;
          resolve(prompt);
          return true;
        };
        if (take()) return;
        const timer = setTimeout(
          () => reject(new Error(`the stand-in received no prompt within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const wake = () => {
          if (take()) clearTimeout(timer);
          else waiters.push(wake);
        };
        waiters.push(wake);
      }),
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await Promise.all(servers.map(closeServer));
    },
  };
}
