import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The apps of the bundler lines: installs from the registry, run by scripts/test-bundler-lines.mjs
// rather than by `npm test` (the main config leaves test/lines out).
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/lines/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: 2,
  },
})
