import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { fetchMock } from "./fetch-mock";

// openapi-fetch keeps the fetch it finds when a client is made, so this must run first.
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  fetchMock(input instanceof Request ? input : new Request(input, init))) as typeof fetch;

afterEach(() => {
  cleanup();
  localStorage.clear();
  fetchMock.mockReset();
});

// Mantine reads these browser APIs that jsdom lacks.
Object.defineProperty(window, "matchMedia", {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};
