import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))

/**
 * tsc over test/fixtures/types-react, whose files import `unplugin-tms/react` as an app does (the
 * built typings in dist/), with the app's locales registered: valid.tsx compiles, each wrong use in
 * invalid.tsx gives exactly its error.
 */
test('useLocale and switchLocale carry the registered locales; <T> takes its build-time props as literals of their type', () => {
  const run = spawnSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'test/fixtures/types-react', '--pretty', 'false'],
    { cwd: repo, encoding: 'utf8' },
  )
  expect(run.stdout.trimEnd().split('\n')).toEqual([
    `test/fixtures/types-react/invalid.tsx(5,16): error TS2345: Argument of type '"es"' is not assignable to parameter of type '"fr" | "en" | "de-CH"'.`,
    `test/fixtures/types-react/invalid.tsx(6,9): error TS2322: Type '"fr" | "en" | "de-CH"' is not assignable to type '"fr"'.`,
    `  Type '"en"' is not assignable to type '"fr"'.`,
    "test/fixtures/types-react/invalid.tsx(9,10): error TS2322: Type 'number' is not assignable to type 'string'.",
    "test/fixtures/types-react/invalid.tsx(10,10): error TS2322: Type 'string' is not assignable to type 'number'.",
    "test/fixtures/types-react/invalid.tsx(11,10): error TS2322: Type '{ children: string; title: string; }' is not assignable to type 'IntrinsicAttributes & TProps'.",
    "  Property 'title' does not exist on type 'IntrinsicAttributes & TProps'.",
  ])
  expect(run.status).toBe(2)
}, 180_000)
