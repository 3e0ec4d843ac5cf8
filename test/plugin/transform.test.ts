import { describe, expect, test } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { messageId } from '../../src/plugin/ids'
import { rewriteMessageCalls } from '../../src/plugin/transform'

/**
 * The rewrite of call sites on real extractor output: one case per call form, exact output, and the
 * output fed back in changes nothing.
 */

const specsOf = (keywords: string[]) => {
  const options = resolveExtractOptions({ cwd: '/app', keywords, namespace: null })
  return { options, specs: new Map(options.keywords.map((k) => [k.name, k])) }
}

/** Rewrites `code` as the plugin does, with ids taken from the message keys. */
function rewrite(code: string, file = '/app/src/x.js', keywords = ['t']): string | null {
  const { options, specs } = specsOf(keywords)
  const fx = extractFromCode(file, code, options)
  const result = rewriteMessageCalls({
    code,
    id: file,
    calls: fx.calls,
    specs,
    runtimeModule: 'unplugin-tms/runtime',
    lookup: (site) => {
      const message = fx.messages.find((m) => m.key === site.messageKey)!
      const plural = site.pluralKey ? { pluralId: `P${messageId(site.pluralKey)}` } : {}
      return { id: `I${messageId(site.messageKey).slice(0, 3)}`, text: message.text, ...plural }
    },
  })
  return result?.code ?? null
}

const IMPORT = 'import { _l as __tms_l } from "unplugin-tms/runtime";\n'

describe('rewriteMessageCalls', () => {
  test('a call with values and options keeps the text literal and the values, drops the options', () => {
    const code =
      "import { t } from 'unplugin-tms/runtime'\nexport const a = t('Hi {name}', { name }, { variant: 'x' })\n"
    const out = rewrite(code)!
    const id = out.match(/__tms_l\("(I[^"]+)"/)![1]
    expect(out).toBe(
      `${IMPORT}import { t } from 'unplugin-tms/runtime'\nexport const a = __tms_l("${id}", 'Hi {name}', { name })\n`,
    )
  })

  test('a call with text only, and one with a trailing comma', () => {
    const code = "t('A')\nt(\n  'B',\n)\n"
    const out = rewrite(code)!
    expect(out).toMatch(
      /^import \{ _l as __tms_l \} from "unplugin-tms\/runtime";\n__tms_l\("I[^"]+", 'A'\)\n__tms_l\("I[^"]+", 'B',\n\)\n$/,
    )
  })

  test('a tagged template becomes a lookup with a values object built from its expressions', () => {
    const code = 'const s = t`You have ${count} items, ${user.name}`\n'
    const out = rewrite(code)!
    const id = out.match(/__tms_l\("(I[^"]+)"/)![1]
    expect(out).toBe(
      `${IMPORT}const s = __tms_l("${id}", "You have {count} items, {1}", { "count": (count), "1": (user.name) })\n`,
    )
  })

  test('a tagged template without expressions', () => {
    expect(rewrite('x = t`Plain`\n')).toMatch(/^import .*\nx = __tms_l\("I[^"]+", "Plain"\)\n$/)
  })

  test('a keyword with a context keeps the app function and looks its text up', () => {
    const out = rewrite("_x('Open', 'menu')\n", '/app/src/x.js', ['_x:1,2c'])!
    expect(out).toMatch(/^import .*\n_x\(__tms_l\("I[^"]+", 'Open'\), 'menu'\)\n$/)
  })

  test('a plural keyword looks up both texts', () => {
    const out = rewrite("_n('One file', '{n} files', n)\n", '/app/src/x.js', ['_n:1,2'])!
    expect(out).toMatch(
      /^import .*\n_n\(__tms_l\("I[^"]+", 'One file'\), __tms_l\("P[^"]+", '\{n\} files'\), n\)\n$/,
    )
  })

  test('a hashbang stays the first line', () => {
    expect(rewrite("#!/usr/bin/env node\nt('A')\n")).toMatch(/^#!\/usr\/bin\/env node\nimport .*\n__tms_l/)
  })

  test('in a .vue file the import of the Vue lookup goes into <script setup>', () => {
    const code =
      "<template><p>{{ x }}</p></template>\n<script setup>\nimport { t } from 'unplugin-tms/runtime'\nconst x = t('Hi')\n</script>\n"
    const out = rewrite(code, '/app/src/Comp.vue')!
    expect(out).toMatch(
      /^<template><p>\{\{ x \}\}<\/p><\/template>\n<script setup>\nimport \{ _l as __tms_l \} from "unplugin-tms\/vue";\nimport \{ t \} from 'unplugin-tms\/runtime'\nconst x = __tms_l\("I[^"]+", 'Hi'\)\n<\/script>\n$/,
    )
  })

  test('a CommonJS module gets a require', () => {
    expect(rewrite("t('A')\n", '/app/src/x.cjs')).toMatch(
      /^const \{ _l: __tms_l \} = require\("unplugin-tms\/runtime"\);\n__tms_l/,
    )
  })

  test('a module without message calls is left alone', () => {
    expect(rewrite('const t2 = split("a")\n')).toBeNull()
  })

  test('running the transform on its own output changes nothing', () => {
    const code =
      "import { t } from 'unplugin-tms/runtime'\nexport const a = t('Hi {name}', { name })\nexport const b = t`Bye ${who}`\n"
    const once = rewrite(code)!
    expect(rewrite(once)).toBeNull()
  })

  test('no source map is generated where the bundler will not read one, and the code is the same', () => {
    const { options, specs } = specsOf(['t'])
    const code = "export const b = t('Hi {name}', { name })\n"
    const fx = extractFromCode('/app/src/m.js', code, options)
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
    const { options, specs } = specsOf(['t'])
    const code = "const a = 1\nexport const b = t('Hi {name}', { name: user.first }, { variant: 'v' })\n"
    const fx = extractFromCode('/app/src/m.js', code, options)
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
