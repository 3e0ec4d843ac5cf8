import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const fixtures = 'test/fixtures/types'

/**
 * tsc over test/fixtures/types, whose files import `unplugin-tms/runtime` as an app does (the package's
 * own name, so the built typings in dist/ are what is checked): valid.ts and valid.tsx must compile,
 * each wrong call of invalid.ts must give exactly its error.
 */
test('t reads its values from the literal text: the valid fixtures compile, the wrong calls give these errors', () => {
  const run = spawnSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', fixtures, '--pretty', 'false'],
    {
      cwd: repo,
      encoding: 'utf8',
    },
  )
  // Union members print in the order TypeScript created them: fixed for these files and this TypeScript.
  const errors = run.stdout.trimEnd().split('\n')
  expect(errors).toEqual([
    "test/fixtures/types/invalid.ts(4,20): error TS2345: Argument of type '{}' is not assignable to parameter of type '{ name: Printable; }'.",
    "  Property 'name' is missing in type '{}' but required in type '{ name: Printable; }'.",
    'test/fixtures/types/invalid.ts(5,1): error TS2554: Expected 2-3 arguments, but got 1.',
    "test/fixtures/types/invalid.ts(6,22): error TS2353: Object literal may only specify known properties, and 'nmae' does not exist in type '{ name: Printable; }'.",
    "test/fixtures/types/invalid.ts(7,22): error TS2322: Type 'undefined' is not assignable to type 'Printable'.",
    "test/fixtures/types/invalid.ts(8,63): error TS2322: Type 'string' is not assignable to type 'number'.",
    "test/fixtures/types/invalid.ts(9,54): error TS2322: Type 'null' is not assignable to type 'number'.",
    "test/fixtures/types/invalid.ts(10,26): error TS2322: Type 'string' is not assignable to type 'NumberValue'.",
    "test/fixtures/types/invalid.ts(11,29): error TS2322: Type 'string' is not assignable to type 'DateValue'.",
    "test/fixtures/types/invalid.ts(12,21): error TS2322: Type 'string' is not assignable to type 'DateValue'.",
    `test/fixtures/types/invalid.ts(13,52): error TS2322: Type 'number' is not assignable to type '"other" | (string & {}) | "female"'.`,
    "test/fixtures/types/invalid.ts(14,36): error TS2322: Type 'string' is not assignable to type '(chunks: unknown[]) => unknown'.",
    "test/fixtures/types/invalid.ts(15,55): error TS2345: Argument of type '{ n: number; }' is not assignable to parameter of type '{ b: (chunks: unknown[]) => unknown; n: number; }'.",
    "  Property 'b' is missing in type '{ n: number; }' but required in type '{ b: (chunks: unknown[]) => unknown; n: number; }'.",
    `test/fixtures/types/invalid.ts(16,17): error TS2345: Argument of type '"es"' is not assignable to parameter of type '"fr" | "en" | "de-CH"'.`,
    `test/fixtures/types/invalid.ts(17,26): error TS2322: Type '"url"' is not assignable to type 'LocaleSource'.`,
  ])
  expect(run.status).toBe(2)
}, 180_000)
