import { describe, expect, it } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { availableScanners, rawTransferSafe } from '../../src/core/extract/scan'

// A generated barrel: thousands of import declarations with bindings, then one message. oxc-parser's
// raw transfer aborts the process on such a program (src/core/extract/scan.ts says where); every
// scanner must read it and find the call.
const IMPORTS = 5_000
const barrel = `${Array.from({ length: IMPORTS }, (_, i) => `import { View${i} } from './views/v${i}'`).join('\n')}
export const title = t('All {count} views', { count: ${IMPORTS} })
`

describe.each(availableScanners())(`a program of ${IMPORTS} import declarations (%s scanner)`, (scanner) => {
  it('is read and its message found', () => {
    const fx = extractFromCode('/app/barrel.ts', barrel, resolveExtractOptions({ cwd: '/app', scanner }))
    expect(fx.messages.map((m) => [m.text, m.parsed])).toEqual([['All {count} views', 'All {0} views']])
    expect(fx.calls.map((c) => [c.line, c.column])).toEqual([[IMPORTS + 1, 22]])
    expect(fx.diagnostics).toEqual([])
  })
})

describe('rawTransferSafe', () => {
  it('counts import words only in a text long enough to hold too many', () => {
    expect(rawTransferSafe(barrel)).toBe(false)
    expect(rawTransferSafe(barrel.split('\n').slice(-1000).join('\n'))).toBe(true)
    expect(rawTransferSafe('import'.repeat(6_000))).toBe(false)
    expect(rawTransferSafe(`${'x'.repeat(40_000)} import a from "b"`)).toBe(true)
  })
})
