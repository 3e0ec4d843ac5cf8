import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))

/**
 * tsc over test/fixtures/types-descriptor, whose files import `unplugin-tms/runtime` as an app does (the
 * built typings in dist/): a descriptor is typed from its literal like `t`, its calls ask for the values
 * the text names unless `msg` was given them; valid.ts compiles, each line of invalid.ts gives its error.
 */
test('msg reads its values from the literal text: its calls ask for them', () => {
  const run = spawnSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'test/fixtures/types-descriptor', '--pretty', 'false'],
    { cwd: repo, encoding: 'utf8' },
  )
  expect(run.stdout.trimEnd().split('\n')).toEqual([
    'test/fixtures/types-descriptor/invalid.ts(4,1): error TS2554: Expected 1 arguments, but got 0.',
    "test/fixtures/types-descriptor/invalid.ts(5,24): error TS2353: Object literal may only specify known properties, and 'nmae' does not exist in type '{ name: Printable; }'.",
    "test/fixtures/types-descriptor/invalid.ts(6,52): error TS2322: Type 'string' is not assignable to type 'number'.",
    "test/fixtures/types-descriptor/invalid.ts(7,24): error TS2353: Object literal may only specify known properties, and 'nmae' does not exist in type '{ name: Printable; }'.",
  ])
  expect(run.status).toBe(2)
}, 180_000)
