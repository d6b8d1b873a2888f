import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Node loads graphql's CommonJS build for `import` and `require` alike; Vite would pick its
  // .mjs build for our imports while CommonJS dependencies get the other one, and graphql
  // refuses to work with two copies of itself. Resolve it the way Node does.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Suites start databases and servers; two cores are shared between them.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default'],
    // Gateways inside test processes would print an access-log line per request; child
    // gateways (test/helpers/gateway.ts) log at info again, and a test reads their lines.
    env: { LOG_LEVEL: 'warn' },
  },
});
