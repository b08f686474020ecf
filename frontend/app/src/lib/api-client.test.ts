import { describe, expect, it, vi } from "vitest";
import { askToSignInHere, messageOf, sessionExpiry } from "./api-client";

function call(status: number, withToken: boolean, here = "/") {
  const navigate = vi.fn();
  const request = new Request("http://localhost/api/campaigns", {
    headers: withToken ? { Authorization: "Bearer t" } : {},
  });
  const response = new Response("{}", { status });
  const middleware = sessionExpiry(navigate, () => here);
  void middleware.onResponse?.({
    request,
    response,
    schemaPath: "/api/campaigns",
    params: {},
    id: "1",
    options: {} as never,
  });
  return navigate;
}

describe("session expiry", () => {
  it("a 401 to a call with a token removes the token and goes to /auth", () => {
    localStorage.setItem("token", "t");
    const navigate = call(401, true);
    expect(navigate).toHaveBeenCalledWith("/auth");
    expect(localStorage.getItem("token")).toBeNull();
  });

  it("a 401 to a login-as session brings back the staff session kept aside, at /admin", () => {
    localStorage.setItem("token", "as-owner");
    localStorage.setItem("staffToken", "staff");
    const navigate = call(401, true);
    expect(navigate).toHaveBeenCalledWith("/admin");
    expect(localStorage.getItem("token")).toBe("staff");
    expect(localStorage.getItem("staffToken")).toBeNull();
  });

  it("the session-expired page signs in again and comes back to the page", () => {
    localStorage.setItem("token", "t");
    expect(call(401, true, "/billing/invoice/CA1")).toHaveBeenCalledWith(
      "/auth?next=%2Fbilling%2Finvoice%2FCA1",
    );
  });

  it("a screen that asks to sign in itself keeps the owner there while it is open", () => {
    localStorage.setItem("token", "t");
    const done = askToSignInHere();
    expect(call(401, true, "/billing")).not.toHaveBeenCalled();
    expect(localStorage.getItem("token")).toBe("t");
    done();
    done(); // Ending twice ends once.
    expect(call(401, true, "/billing")).toHaveBeenCalledWith("/auth?next=%2Fbilling");
    expect(localStorage.getItem("token")).toBeNull();
  });

  it("leaves other answers and token-less calls alone", () => {
    localStorage.setItem("token", "t");
    expect(call(403, true)).not.toHaveBeenCalled();
    expect(call(401, false)).not.toHaveBeenCalled();
    expect(localStorage.getItem("token")).toBe("t");
  });
});

describe("messageOf", () => {
  it("prefers the server's message", () => {
    expect(messageOf({ message: "Invalid email or password" }, "Login failed")).toBe(
      "Invalid email or password",
    );
    expect(messageOf({ message: "" }, "Login failed")).toBe("Login failed");
    expect(messageOf(undefined, "Login failed")).toBe("Login failed");
  });
});
