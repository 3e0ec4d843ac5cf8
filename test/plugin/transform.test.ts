/**
 * The rewrite of call sites on real extractor output. One fixture per case in test/fixtures/transform:
 * `X.in.<ext>` is the module (named `src/X.<ext>` in the project), `X.out.<ext>` the exact output (the
 * input itself when nothing is rewritten), and an optional `X.options.json` holds `keywords` and
 * `importRuntime` (false: inline mode) and `idOnly` (`sourceCatalog`). Every fixture runs twice: its output, transformed again, comes
 * back unchanged. Ids are the plugin's own (`messageId` of the message key), so outputs are exact.
 * Outputs are checked as every fixture is (test/helpers/fixture.ts). The source map tests below are not text.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, test } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { messageId } from '../../src/plugin/ids'
import { rewriteMessageCalls } from '../../src/plugin/transform'
import { expectFixture } from '../helpers/fixture'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const fixtures = join(repo, 'test/fixtures/transform')

interface FixtureOptions {
  keywords?: string[]
  importRuntime?: boolean
  /** `sourceCatalog`: lookups hold only their ids. */
  idOnly?: boolean
}

const specsOf = (keywords: string[]) => {
  // The repository as the project: a framework compiler an extraction needs resolves from it.
  const options = resolveExtractOptions({ cwd: repo, keywords, namespace: null })
  return { options, specs: new Map(options.keywords.map((k) => [k.name, k])) }
}

/** Rewrites `code` as the plugin does, ids from the message keys; the code unchanged when nothing is rewritten. */
function transform(
  file: string,
  code: string,
  fixture: FixtureOptions,
): { code: string; problems: string[] } {
  const { options, specs } = specsOf(fixture.keywords ?? ['t'])
  const fx = extractFromCode(file, code, options)
  const result = rewriteMessageCalls({
    code,
    id: file,
    calls: fx.calls,
    specs,
    runtimeModule: 'unplugin-tms/runtime',
    sourcemap: false,
    ...(fixture.importRuntime === undefined ? {} : { importRuntime: fixture.importRuntime }),
    ...(fixture.idOnly === undefined ? {} : { idOnly: fixture.idOnly }),
    lookup: (site) => {
      const message = fx.messages.find((m) => m.key === site.messageKey)!
      const plural = site.pluralKey ? { pluralId: messageId(site.pluralKey) } : {}
      return { id: messageId(site.messageKey), text: message.text, ...plural }
    },
  })
  return { code: result?.code ?? code, problems: fx.diagnostics.map((d) => d.message) }
}

/** Every `X.in.<ext>` under the fixture folder, as a path relative to it. */
const inputs = readdirSync(fixtures, { recursive: true, encoding: 'utf8' })
  .map((entry) => entry.split('\\').join('/'))
  .filter((entry) => /(?:^|\/)[^/]+\.in\.[^/]+$/.test(entry))
  .sort()

describe('transform fixtures', () => {
  it('has a case per call form', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(12)
  })

  it.each(inputs)('%s: exact output, and the output transformed again is unchanged', async (name) => {
    const input = readFileSync(join(fixtures, name), 'utf8')
    const optionsFile = join(fixtures, name.replace(/\.in\.[^/]+$/, '.options.json'))
    const fixture = (
      existsSync(optionsFile) ? JSON.parse(readFileSync(optionsFile, 'utf8')) : {}
    ) as FixtureOptions
    const file = join(repo, 'src', name.replace('.in.', '.'))
    const expectedFile = join(fixtures, name.replace('.in.', '.out.'))
    const first = transform(file, input, fixture)
    expect(first.problems).toEqual([])
    await expectFixture(first.code, expectedFile)
    // The second pass: no message call is left to rewrite, and nothing to report (a keyword that keeps
    // the app's function, `_x(__tms_l(...), 'menu')`, holds an already-rewritten lookup).
    const second = transform(file, first.code, fixture)
    expect(second.problems).toEqual([])
    expect(second.code).toBe(first.code)
  })

  // What reads line numbers off the rewritten code (a JSX dev transform's `lineNumber`, a stack read
  // without source maps) must name the source's: each line that holds no message keeps its number, and
  // the runtime import goes in front of a line's code (inside a `<script>` of its own in a Svelte
  // file without one).
  it.each(inputs)('%s: every line without a message keeps its number', (name) => {
    const input = readFileSync(join(fixtures, name), 'utf8')
    const output = readFileSync(join(fixtures, name.replace('.in.', '.out.')), 'utf8')
    const { options } = specsOf(['t', 'msg', '_n:1,2', '_x:1'])
    const lineOf = (offset: number) => input.slice(0, offset).split('\n').length - 1
    const sited = new Set<number>()
    for (const call of extractFromCode(join(repo, 'src', name.replace('.in.', '.')), input, options).calls) {
      for (let line = lineOf(call.start); line <= lineOf(call.end); line++) sited.add(line)
    }
    const outputLines = output.split('\n')
    input.split('\n').forEach((line, i) => {
      if (sited.has(i)) return
      expect(outputLines[i]!.replace(INSERTED, '').replace('<script></script>', ''), `line ${i + 1}`).toBe(
        line,
      )
    })
  })
})

/** The runtime import as the transform writes it: ES module or CommonJS. */
const INSERTED = /import \{[^}]*\} from "[^"]*";|const \{[^}]*\} = require\("[^"]*"\);/g

describe('source maps', () => {
  const sourceMapOptions = resolveExtractOptions({ cwd: '/app', namespace: null })
  const specs = new Map(sourceMapOptions.keywords.map((k) => [k.name, k]))

  test('no source map is generated where the bundler will not read one, and the code is the same', () => {
    const code = "export const b = t('Hi {name}', { name })\n"
    const fx = extractFromCode('/app/src/m.js', code, sourceMapOptions)
    const input = {
      code,
      id: '/app/src/m.js',
      calls: fx.calls,
      specs,
      runtimeModule: 'unplugin-tms/runtime',
      lookup: () => ({ id: 'x', text: 'Hi {name}' }),
    }
    const without = rewriteMessageCalls({ ...input, sourcemap: false })!
    const withMap = rewriteMessageCalls(input)!
    expect(without.map).toBeNull()
    expect(withMap.map).not.toBeNull()
    expect(without.code).toBe(withMap.code)
  })

  test('the source map points the kept text and values back at their original positions', () => {
    const code = "const a = 1\nexport const b = t('Hi {name}', { name: user.first }, { variant: 'v' })\n"
    const fx = extractFromCode('/app/src/m.js', code, sourceMapOptions)
    const result = rewriteMessageCalls({
      code,
      id: '/app/src/m.js',
      calls: fx.calls,
      specs,
      runtimeModule: 'unplugin-tms/runtime',
      lookup: () => ({ id: 'x', text: 'Hi {name}' }),
    })!
    const map = result.map!
    expect(map.sources).toEqual(['/app/src/m.js'])
    expect(map.sourcesContent).toEqual([code])
    expect(result.ids).toEqual(['x'])
    for (const needle of ["'Hi {name}'", 'user.first']) {
      expect(originalPosition(map.mappings, positionOf(result.code, needle))).toEqual(
        positionOf(code, needle),
      )
    }
  })
})

/** 0-based line and column of the first occurrence of `needle`. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const at = text.indexOf(needle)
  const before = text.slice(0, at).split('\n')
  return { line: before.length - 1, column: before[before.length - 1]!.length }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Decodes a source map's mappings and finds the original position of a generated one (exact segment). */
function originalPosition(
  mappings: string,
  generated: { line: number; column: number },
): { line: number; column: number } | undefined {
  let sourceLine = 0
  let sourceColumn = 0
  const lines = mappings.split(';')
  for (let l = 0; l < lines.length; l++) {
    let column = 0
    for (const segment of lines[l]!.split(',').filter(Boolean)) {
      const values: number[] = []
      let shift = 0
      let value = 0
      for (const ch of segment) {
        const digit = B64.indexOf(ch)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1)
          shift = 0
          value = 0
        }
      }
      column += values[0]!
      if (values.length >= 4) {
        sourceLine += values[2]!
        sourceColumn += values[3]!
      }
      if (l === generated.line && column === generated.column)
        return { line: sourceLine, column: sourceColumn }
    }
  }
  return undefined
}
