/**
 * Which message calls run once, as their module is evaluated (`CallSite.moduleLevel`: the build warns
 * of them in runtime mode), held to the same answer in every scanner.
 */
import { describe, expect, it } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { availableScanners } from '../../src/core/extract/scan'

const code = `import { msg, t } from 'unplugin-tms/runtime'
export const a = t('At module level')
t('A statement')
const table = [{ label: t('In a table') }, { label: msg('A descriptor') }]
if (table) t('In a block')
export function f() { return t('In a function') }
export const g = () => t('In an arrow')
export const h = function () { return [t('In a function expression')] }
class C { label = t('In a class field'); m() { return t('In a method') } }
export const o = { get x() { return t('In a getter') }, y: () => () => t('Nested') }
export default t\`A tagged template\`
`

describe.each(availableScanners())('the %s scanner', (scanner) => {
  it('marks exactly the calls outside every function and class, never a descriptor', () => {
    const options = resolveExtractOptions({ cwd: '/app', namespace: null, scanner })
    const fx = extractFromCode('/app/src/m.ts', code, options)
    const marked = fx.calls.filter((c) => c.moduleLevel).map((c) => code.slice(c.start, c.end))
    expect(marked).toEqual([
      "t('At module level')",
      "t('A statement')",
      "t('In a table')",
      "t('In a block')",
      't`A tagged template`',
    ])
    expect(fx.calls.filter((c) => c.descriptor).map((c) => code.slice(c.start, c.end))).toEqual([
      "msg('A descriptor')",
    ])
  })

  it('marks none in a .vue or .svelte file, whose scripts run per component', () => {
    const options = resolveExtractOptions({ cwd: '/app', namespace: null, scanner })
    const svelte = `<script>\nimport { t } from 'unplugin-tms/runtime'\nconst a = t('Hi')\n</script>\n<p>{a}</p>\n`
    const fx = extractFromCode('/app/src/C.svelte', svelte, options)
    expect(fx.calls).toHaveLength(1)
    expect(fx.calls[0]!.moduleLevel).toBeUndefined()
  })
})
