import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The meta-framework apps that install their framework at test time (Next.js 15 and 16, Nuxt 4, which
// builds on Node 22 and later): long builds, run once on Node 22 as the last step of .ci/run
// (docs/development.md) rather than by `npm test` on each Node (the main config leaves them out).
export const FRAMEWORK_TESTS: string[] = ['test/next/**/*.test.ts', 'test/ssr/nuxt.test.ts']

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: FRAMEWORK_TESTS,
    testTimeout: 600_000,
    hookTimeout: 1_800_000,
    maxWorkers: 1,
  },
})
