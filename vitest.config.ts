import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    env: { TZ: 'UTC' },
    projects: [
      { test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'server', include: ['packages/server/src/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 } },
      {
        test: {
          name: 'web',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['packages/web/src/test/setup.ts'],
        },
      },
      { test: { name: 'e2e', include: ['e2e/**/*.e2e.ts'], testTimeout: 90_000, hookTimeout: 180_000, fileParallelism: false } },
    ],
  },
});
