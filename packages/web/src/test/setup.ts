// The web project's test setup: jest-dom matchers, a clean DOM and query cache after each test, and
// the browser APIs jsdom lacks that Mantine uses (matchMedia, ResizeObserver, scrollIntoView, document.fonts).
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { queryClient } from '../lib/query-client.ts';

// findBy and waitFor wait for a condition; on two busy cores a cold first render takes longer than
// testing-library's 1 s default, which failed tests for no fault of the screen.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  queryClient.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
});

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => undefined;
// Textarea's autosize listens for web fonts loading, which jsdom does not model.
Object.defineProperty(document, 'fonts', {
  configurable: true,
  value: { ready: Promise.resolve(), addEventListener: () => undefined, removeEventListener: () => undefined },
});
