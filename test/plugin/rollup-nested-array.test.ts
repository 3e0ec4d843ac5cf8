import type { InputOptions, Plugin } from 'rollup'
import { expect, test } from 'vitest'
import tms from '../../src/rollup'

// Rollup 3.0 and 3.1 run `options` on the array as if it were one plugin (the lines script builds with
// rollup 3.0.0 itself); this pins what that hook hands back to them.
test('on rollup 3.0 the nested array puts its plugins in its place', async () => {
  const made = tms({ root: import.meta.dirname, namespace: 'nested-array', locales: ['fr-FR'] })
  expect(Array.isArray(made)).toBe(true)
  const ours = made as Plugin[]
  const before: Plugin = { name: 'before' }
  const after: Plugin = { name: 'after' }
  const options = (made as unknown as { options: (input: InputOptions) => InputOptions }).options
  const input: InputOptions = { input: 'main.js', plugins: [before, ours as unknown as Plugin, after] }
  const result = options(input)
  expect(result.input).toBe('main.js')
  const expected = [before, ...ours, after]
  const plugins = result.plugins as Plugin[]
  expect(plugins).toHaveLength(expected.length)
  expect(plugins.every((plugin, i) => plugin === expected[i])).toBe(true)
})
