import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseSync } from 'oxc-parser'
import { expect, test } from 'vitest'
import { expectFixture } from '../helpers/fixture'
import { rewrite } from './rewrite'

/**
 * `<T>` rewritten as the plugin does (runtime mode, and inline mode for `inline.tsx`), compared whole
 * with `<name>.expected.tsx` (test/helpers/fixture.ts), with and without a
 * source map; the output is TSX that parses, and transforming it again changes nothing.
 */

const dir = fileURLToPath(new URL('../fixtures/transform-react/', import.meta.url))
const inputs = readdirSync(dir).filter((f) => f.endsWith('.tsx') && !f.endsWith('.expected.tsx'))
test.each(inputs)('%s: exact output, TSX that parses, and a second pass changes nothing', async (name) => {
  const file = join(dir, name)
  const out = rewrite(readFileSync(file, 'utf8'), file)
  expect(out).not.toBeNull()
  const expectedFile = join(dir, name.replace(/\.tsx$/, '.expected.tsx'))
  await expectFixture(out!, expectedFile)
  // Without a source map the edits are spliced into the text when they stand apart: the same output.
  expect(rewrite(readFileSync(file, 'utf8'), file, false)).toBe(out)
  expect(parseSync(name, out!, { lang: 'tsx' }).errors).toEqual([])
  expect(rewrite(out!, file)).toBeNull()
})
