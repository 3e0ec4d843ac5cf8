import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import webpack from 'webpack'
import tmsRspack from '../../src/rspack'
import tmsWebpack from '../../src/webpack'
import { type LikeCompiler, runWebpackLike, webpackConfig } from './bundlers'
import { type InlineProject, SOURCE_LOCALE, setupInlineProject, textIn } from './inline-helpers'

/**
 * Inline mode's source maps as a debugger reads them: an error thrown in each locale's copy of a
 * minified webpack or rspack build, its stack position (from Node, which does not map it) traced
 * through the copy's map, lands on the exact line and column of the `new` that threw, as in runtime
 * mode. Thrown at several places of one minified line, after message calls and without any.
 */

const FEW = ['fr-FR', 'de-DE']
const CRASH = `import { t } from 'unplugin-tms/runtime'

const checks = { positive: (n) => n > 0, small: (n) => n < 100 }

function describeOrder(order) {
  return t('Order {id} of {count} items', { id: order.id, count: order.count })
}

export function crash(order) {
  const label = describeOrder(order)
  for (const [name, check] of Object.entries(checks)) {
    if (!check(order.count)) throw new Error(t('{label} failed the {name} check', { label, name }))
  }
  if (order.id === 'plain') throw new Error('A plain failure')
  const note = order.note
  if (note) {
    throw new TypeError(label + ': ' + note)
  }
  return label
}
`

/** The orders that make `crash` throw at each of its three `new`s, in order. */
const ORDERS = [
  { id: 'a1', count: 500 },
  { id: 'plain', count: 2 },
  { id: 'b2', count: 3, note: 'no stock' },
]

/** Where each `new` of a throw is in crash.js: 1-based line, 0-based column (a source map's own). */
const THROWS = CRASH.split('\n').flatMap((text, i) => {
  const at = text.indexOf('throw new ')
  return at < 0 ? [] : [{ line: i + 1, column: at + 'throw '.length }]
})

let project: InlineProject

beforeAll(async () => {
  const main = readFileSync(join(__dirname, '../fixtures/plugin/inline-app/src/main.js'), 'utf8')
  project = await setupInlineProject(FEW, {
    'src/crash.js': CRASH,
    'src/main.js': `${main}\nexport { crash } from './crash.js'\n`,
  })
}, 60_000)

afterAll(() => project?.close())

interface Thrown {
  message: string
  line: number
  column: number
}

/** Each order's error in a fresh Node process, with its position in `file` (1-based, as V8 prints). */
async function throwsOf(file: string): Promise<Thrown[]> {
  const script = `const { crash } = await import(${JSON.stringify(pathToFileURL(file).href)})
const out = []
for (const order of ${JSON.stringify(ORDERS)}) {
  try { crash(order) } catch (e) {
    const at = /main\\.mjs:(\\d+):(\\d+)/.exec(e.stack)
    out.push({ message: e.message, line: +at[1], column: +at[2] })
  }
}
console.log(JSON.stringify(out))`
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
  return JSON.parse(stdout) as Thrown[]
}

/** The map of a copy's main.mjs: its own file, or the data URL at its end. */
function mapOf(file: string): TraceMap {
  const code = readFileSync(file, 'utf8')
  const inline = /\n\/\/# sourceMappingURL=data:application\/json;charset=utf-8;base64,(\S+)\s*$/.exec(code)
  if (inline) return new TraceMap(Buffer.from(inline[1]!, 'base64').toString('utf8'))
  expect(code).toMatch(/\n\/\/# sourceMappingURL=main\.mjs\.map\s*$/)
  return new TraceMap(readFileSync(`${file}.map`, 'utf8'))
}

async function expectExactTraces(
  bundler: string,
  create: (config: object) => LikeCompiler,
  plugin: unknown,
  devtool: string,
): Promise<void> {
  const outDir = join(project.root, `dist-${bundler}-${devtool}`)
  await runWebpackLike(create, { ...webpackConfig(project.root, outDir, plugin, 'production'), devtool })
  for (const locale of [SOURCE_LOCALE, ...FEW]) {
    const file = join(outDir, locale, 'main.mjs')
    const map = mapOf(file)
    const thrown = await throwsOf(file)
    const label = (o: (typeof ORDERS)[number]) =>
      textIn(locale)('Order {id} of {count} items').replace('{id}', o.id).replace('{count}', String(o.count))
    expect(thrown.map((e) => e.message)).toEqual([
      textIn(locale)('{label} failed the {name} check')
        .replace('{label}', label(ORDERS[0]!))
        .replace('{name}', 'small'),
      'A plain failure',
      `${label(ORDERS[2]!)}: no stock`,
    ])
    const traced = thrown.map((e) => {
      const p = originalPositionFor(map, { line: e.line, column: e.column - 1 })
      return { source: p.source?.replace(/^.*\/src\//, 'src/'), line: p.line, column: p.column }
    })
    expect({ locale, traced }).toEqual({
      locale,
      traced: THROWS.map((at) => ({ source: 'src/crash.js', ...at })),
    })
  }
}

describe('a throw in each copy traces to the exact line and column of its source', () => {
  const webpackOf = (c: object) => webpack(c as webpack.Configuration) as unknown as LikeCompiler
  test('webpack, devtool source-map', async () => {
    await expectExactTraces('webpack', webpackOf, tmsWebpack(project.options({ locales: FEW })), 'source-map')
  })

  test('webpack, devtool inline-source-map', async () => {
    await expectExactTraces(
      'webpack',
      webpackOf,
      tmsWebpack(project.options({ locales: FEW })),
      'inline-source-map',
    )
  })

  test('rspack, devtool source-map', async () => {
    const { rspack } = await import('@rspack/core')
    const rspackOf = (c: object) => rspack(c as never) as unknown as LikeCompiler
    await expectExactTraces('rspack', rspackOf, tmsRspack(project.options({ locales: FEW })), 'source-map')
  })
})
