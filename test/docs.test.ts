import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { readmeWithTable } from '../scripts/options-doc'

it('the README option table is the one src/options.ts documents (npm run docs)', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
  expect(readme).toBe(readmeWithTable(readme))
  expect(readme).toContain('| `locales` | `string[]` |')
})
