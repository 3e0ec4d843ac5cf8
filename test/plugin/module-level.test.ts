import { describe, expect, it } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { moduleLevelProblems } from '../../src/plugin/module-level'

const cwd = '/app'
const options = resolveExtractOptions({ cwd, include: ['src/**/*.js'] })
const HINT =
  '; define the message with msg() from unplugin-tms/runtime (same arguments) and call it where it is rendered (docs/messages.md, "Messages defined outside a render")'

describe('the module-level warning', () => {
  it('is one per module, at its first such call, counting the others', () => {
    const code = [
      "import { t } from 'unplugin-tms/runtime'",
      "export const colors = [t('Red'), t('Green'), t('Blue')]",
      "export const label = () => t('Rendered')",
      '',
    ].join('\n')
    const problems = moduleLevelProblems(extractFromCode('/app/src/colors.js', code, options), code, cwd)
    expect(problems.map((p) => [p.code, p.line, p.column, p.message])).toEqual([
      [
        'module-level-message',
        2,
        24,
        `src/colors.js:2:24: t(...) runs once, when the module is evaluated, so its text stays in the locale of that moment and no setLocale changes it (and 2 more message calls at module level in this file)${HINT}`,
      ],
    ])
  })

  it('says nothing of a module whose messages are all inside functions', () => {
    const code = "import { t } from 'unplugin-tms/runtime'\nexport const all = () => [t('Red'), t('Blue')]\n"
    expect(moduleLevelProblems(extractFromCode('/app/src/ok.js', code, options), code, cwd)).toEqual([])
  })
})
