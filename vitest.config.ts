import { configDefaults, defineConfig } from 'vitest/config'
import { FRAMEWORK_TESTS } from './test/frameworks.vitest.config.ts'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The apps of the bundler lines install from the registry: scripts/test-bundler-lines.mjs runs them;
    // the framework apps (test/frameworks.vitest.config.ts) run by hand, on Node 22.
    exclude: [...configDefaults.exclude, 'test/lines/**', ...FRAMEWORK_TESTS],
    // A limit for a test that hangs, never a speed expectation: on a 2-core machine under other
    // builds (load 20), a Chromium or bundler test that takes 8 s alone takes over 30 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: bundler and emulator tests are heavy, keep the pool small.
    maxWorkers: 2,
    // Expected files are written only when asked (`vitest -u`), never because one is missing
    // (test/helpers/fixture.ts); vitest's default outside CI would write a missing one and pass.
    update: 'none',
    // Each run's temporary directories under one root, removed at its end (test/helpers/temp-root.ts).
    globalSetup: ['test/helpers/temp-root.ts'],
  },
})
