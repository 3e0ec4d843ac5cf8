import { describe, expect, test } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { compiledLiteral, compileMessage } from '../../src/core/icu/compile'
import { rewriteMessageCalls } from '../../src/plugin/transform'

/** The rewrite of ICU call sites: exact output in runtime mode and in inline mode. */

function rewrite(code: string, inline: boolean, keywords = ['t', '_x:1,2c']): string | undefined {
  const options = resolveExtractOptions({ cwd: '/app', keywords, namespace: null })
  const specs = new Map(options.keywords.map((k) => [k.name, k]))
  const fx = extractFromCode('/app/src/x.js', code, options)
  return rewriteMessageCalls({
    code,
    id: '/app/src/x.js',
    calls: fx.calls,
    specs,
    runtimeModule: 'unplugin-tms/runtime',
    importRuntime: !inline,
    sourcemap: false,
    lookup: (site) => {
      const text = fx.messages.find((m) => m.key === site.messageKey)!.text
      return { id: 'ID', text, form: compiledLiteral(compileMessage(text)) }
    },
  })?.code
}

const PLURAL = '{n, plural, one {# file} other {# files}}'
const FORM = '[["n",4,0,{"one":[0," file"],"other":[0," files"]}]]'

describe('ICU call sites', () => {
  test('runtime mode: the text becomes the compiled form, the lookup formats it', () => {
    expect(rewrite(`t('${PLURAL}', { n }, { variant: 'v' })\n_x('${PLURAL}', 'menu')\n`, false)).toBe(
      `import { _l as __tms_l } from "unplugin-tms/runtime";__tms_l("ID", ${FORM}, { n })\n_x(__tms_l("ID", ${FORM}), 'menu')\n`,
    )
  })

  test("inline mode: the runtime's formatting wraps a marker each copy fills with its locale's form", () => {
    expect(
      rewrite(`t('${PLURAL}', { n }, { variant: 'v' })\nt('${PLURAL}')\n_x('${PLURAL}', 'menu')\n`, true),
    ).toBe(
      'import { _f as __tms_f } from "unplugin-tms/runtime";' +
        `__tms_f(__tms_l("ID", "${PLURAL}"), { n }, __tms_locale())\n` +
        `__tms_f(__tms_l("ID", "${PLURAL}"), void 0, __tms_locale())\n` +
        `_x(__tms_f(__tms_l("ID", '${PLURAL}'), void 0, __tms_locale()), 'menu')\n`,
    )
  })

  test('tagged templates in both modes', () => {
    const code = 't`{n, plural, one {# file} other {# files}}`\n'
    expect(rewrite(code, false)).toBe(
      `import { _l as __tms_l } from "unplugin-tms/runtime";__tms_l("ID", ${FORM})\n`,
    )
    expect(rewrite(code, true)).toBe(
      `import { _f as __tms_f } from "unplugin-tms/runtime";__tms_f(__tms_l("ID", "${PLURAL}"), void 0, __tms_locale())\n`,
    )
  })
})
