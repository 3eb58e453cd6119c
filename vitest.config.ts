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
          // Screen tests type and click through whole flows in jsdom: on two busy cores one takes
          // several seconds (the 5 s default failed them under load, not for a fault).
          testTimeout: 30_000,
        },
      },
      { test: { name: 'e2e', include: ['e2e/**/*.e2e.ts'], testTimeout: 90_000, hookTimeout: 180_000, fileParallelism: false } },
    ],
  },
});
