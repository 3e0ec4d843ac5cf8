import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))

/**
 * tsc over test/fixtures/types-svelte, whose files import `unplugin-tms/svelte` as an app does (the
 * built typings in dist/): valid.ts compiles, each wrong line of invalid.ts gives exactly its error.
 */
test('the Svelte binding is typed like the runtime: t reads its values from the text, tag wants a snippet', () => {
  const run = spawnSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'test/fixtures/types-svelte', '--pretty', 'false'],
    { cwd: repo, encoding: 'utf8' },
  )
  expect(run.stdout.trimEnd().split('\n')).toEqual([
    "test/fixtures/types-svelte/invalid.ts(3,20): error TS2345: Argument of type '{}' is not assignable to parameter of type '{ name: Printable; }'.",
    "  Property 'name' is missing in type '{}' but required in type '{ name: Printable; }'.",
    "test/fixtures/types-svelte/invalid.ts(4,36): error TS2322: Type 'string' is not assignable to type '(chunks: unknown[]) => unknown'.",
    "test/fixtures/types-svelte/invalid.ts(5,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'Snippet<[Snippet<[]>]>'.",
    "test/fixtures/types-svelte/invalid.ts(6,8): error TS2540: Cannot assign to 'all' because it is a read-only property.",
  ])
  expect(run.status).toBe(2)
}, 180_000)
