import { render, renderHook, screen } from "@testing-library/react";
import { createRef } from "react";
import { describe, expect, it } from "vitest";
import { Link, useNavigate, useSearchParams } from "./router";

describe("the sign-in pages' stand-in for React Router", () => {
  it("renders a link as a plain anchor, passing its props and ref through", () => {
    const ref = createRef<HTMLAnchorElement>();
    render(
      <Link ref={ref} to="/register" className="x" aria-label="Create an account">
        Create an account
      </Link>,
    );
    const link = screen.getByRole("link", { name: "Create an account" });
    expect(link).toHaveAttribute("href", "/register");
    expect(link).toHaveClass("x");
    expect(ref.current).toBe(link);
  });

  it("reads the query string and keeps one navigate function", () => {
    window.history.replaceState(null, "", "/reset-password?token=abc");
    const { result, rerender } = renderHook(() => ({
      params: useSearchParams()[0],
      navigate: useNavigate(),
    }));
    expect(result.current.params.get("token")).toBe("abc");
    const first = result.current.navigate;
    rerender();
    expect(result.current.navigate).toBe(first);
    window.history.replaceState(null, "", "/");
  });
});
