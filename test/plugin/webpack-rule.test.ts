import { rspack } from '@rspack/core'
import { describe, expect, test } from 'vitest'
import webpack from 'webpack'
import { staticTransformRule } from '../../src/plugin/webpack-rule'
import tmsRspack from '../../src/rspack'
import tmsWebpack from '../../src/webpack'

/**
 * webpack and rspack get the transform as a static rule: the loader item unplugin would make for each
 * module, made once, and the id filter as the rule's `test` and `exclude`, which the bundler matches
 * itself (a watch resolves every module again on each rebuild).
 */

const INCLUDE = /\.js$/
const EXCLUDE = /node_modules/

describe('staticTransformRule', () => {
  const plugin = { name: 'unplugin-tms', transform: () => null }
  const item = {
    loader: '/unplugin/dist/webpack/loaders/transform.mjs',
    options: { plugin },
    ident: 'unplugin-tms',
  }

  test("unplugin's rule of the plugin becomes the same loader item under the filter's conditions", () => {
    const seen: object[] = []
    const rules: unknown[] = [
      {
        enforce: 'pre',
        use: (data: object) => {
          seen.push(data)
          return [item]
        },
      },
      { test: /\.css$/, use: ['css-loader'] },
    ]
    staticTransformRule(rules, plugin, INCLUDE, EXCLUDE)
    expect(rules).toEqual([
      { enforce: 'pre', test: INCLUDE, exclude: EXCLUDE, use: [item] },
      { test: /\.css$/, use: ['css-loader'] },
    ])
    expect(seen).toHaveLength(1)
  })

  test("another plugin's rule, a rule of another shape or no rule at all is left as it is", () => {
    const other = { enforce: 'pre', use: () => [{ ...item, options: { plugin: { transform: () => null } } }] }
    const fixed = { enforce: 'pre', use: [item] }
    for (const rule of [other, fixed]) {
      const rules: unknown[] = [rule]
      staticTransformRule(rules, plugin, INCLUDE, EXCLUDE)
      expect(rules).toEqual([rule])
    }
    expect(() => staticTransformRule([], plugin, INCLUDE, EXCLUDE)).not.toThrow()
    expect(() => staticTransformRule(undefined, plugin, INCLUDE, EXCLUDE)).not.toThrow()
  })
})

/** The rules a compiler holds once its plugins were applied, with the transform loader's. */
function transformRules(rules: unknown[]): { test?: unknown; exclude?: unknown; use?: unknown }[] {
  return (rules as { use?: unknown }[]).filter(
    (r) =>
      typeof r.use === 'function' ||
      (Array.isArray(r.use) &&
        r.use.some((u: { loader?: string }) => /transform\.m?js$/.test(u.loader ?? ''))),
  )
}

const rulesOf = (compiler: unknown): unknown[] =>
  (compiler as { options: { module: { rules: unknown[] } } }).options.module.rules

const config = (plugin: unknown) => ({
  mode: 'development' as const,
  context: '/nowhere',
  entry: './src/main.js',
  plugins: [plugin],
  infrastructureLogging: { level: 'none' as const },
})

test.each([
  ['webpack', () => rulesOf(webpack(config(tmsWebpack({ locales: ['fr-FR'] })) as webpack.Configuration))],
  ['rspack', () => rulesOf(rspack(config(tmsRspack({ locales: ['fr-FR'] })) as never))],
])('%s holds the transform as one static rule', (_name, compiled) => {
  const rules = transformRules(compiled())
  expect(rules).toHaveLength(1)
  expect(rules[0]!.test).toBeInstanceOf(RegExp)
  expect(rules[0]!.exclude).toBeInstanceOf(RegExp)
  expect((rules[0]!.test as RegExp).test('/app/src/page.tsx')).toBe(true)
  expect((rules[0]!.exclude as RegExp).test('/app/node_modules/x/index.js')).toBe(true)
})
