import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runImport } from '../../../src/core/import/run'
import { resolveOptions } from '../../../src/options'

/**
 * `tms import` checks a translation with the config's `formats`, as the build does: a translation that
 * moves a price to another currency through a named format (`{total, number, USD}` where the source
 * names `CHF`) is refused with the reason a skeleton (`::currency/USD`) gets, not imported for the
 * build to reject.
 */

const SKELETON = 'Your basket costs {total, number, ::currency/CHF}.'
const NAMED = 'Your order costs {total, number, CHF}.'
const FORMATS = {
  number: {
    CHF: { style: 'currency', currency: 'CHF' },
    USD: { style: 'currency', currency: 'USD' },
  },
} as const

let root: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tms-import-named-formats-'))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'package.json'), '{ "name": "shop-app", "private": true }\n')
  writeFileSync(
    join(root, 'src/prices.ts'),
    [
      "import { msg } from 'unplugin-tms/runtime'",
      `export const basket = msg(${JSON.stringify(SKELETON)})`,
      `export const order = msg(${JSON.stringify(NAMED)})`,
      '',
    ].join('\n'),
  )
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('tms import with named formats', () => {
  it('refuses a currency changed through a named format with the same reason as through a skeleton', async () => {
    const en = { 'price.basket': { defaultMessage: SKELETON }, 'price.order': { defaultMessage: NAMED } }
    const it = {
      'price.basket': 'Il carrello costa {total, number, ::currency/USD}.',
      'price.order': "L'ordine costa {total, number, USD}.",
    }
    const report = await runImport({
      options: resolveOptions(
        { root, locales: ['it-IT'], formats: FORMATS, cacheDir: join(root, '.tms-cache') },
        { command: 'cli', env: {} },
      ),
      from: 'formatjs',
      files: [
        { file: 'lang/en.json', text: JSON.stringify(en, null, 2) },
        { file: 'lang/it.json', text: JSON.stringify(it, null, 2) },
      ],
      state: 'published',
      overwrite: false,
      dryRun: true,
      batchSize: 1000,
      logger: { info() {}, warn() {} },
      connect: async () => undefined,
    })
    expect(report.matched).toEqual([])
    expect(report.refused.map((r) => [r.from, r.key, r.reason])).toEqual([
      [
        'lang/it.json:2',
        'price.basket',
        `its translation "Il carrello costa {total, number, ::currency/USD}." would be rejected against the source ${JSON.stringify(SKELETON)}: it formats money in USD, where the source uses CHF`,
      ],
      [
        'lang/it.json:3',
        'price.order',
        `its translation "L'ordine costa {total, number, USD}." would be rejected against the source ${JSON.stringify(NAMED)}: it formats money in USD, where the source uses CHF`,
      ],
    ])
  })
})
