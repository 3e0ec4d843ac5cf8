import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { checkIcuTranslation } from '../../src/core/icu/check'
import { compileMessage } from '../../src/core/icu/compile'
import { buildWithWarnings, type IcuProject, setupIcuProject } from './project'

/**
 * What a translator or the service may send that compiles but would break a build or throw in the
 * page: nesting a thousand levels deep, a text of megabytes, a skeleton Intl refuses, another currency,
 * a tag rendered twice. Each is refused by the check with its reason; the same in a source message is
 * an extraction error at file:line:col. Then one real build per mode with such translations: it
 * completes, warns once per refused translation, and each refused message renders exactly as an
 * untranslated one.
 */

const PLURAL = '{count, plural, one {# file} other {# files}}'
/** `{count, plural, one {...} other {x}}` nested `levels` deep around `#`. */
const nested = (levels: number): string => {
  let text = '#'
  for (let i = 0; i < levels; i++) text = `{count, plural, one {${text}} other {x}}`
  return text
}
/** The message Intl gives when it refuses these options (it differs between engine versions). */
const intlSays = (make: () => unknown): string => {
  try {
    make()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('Intl accepted the options')
}

describe('checkIcuTranslation refuses what would break a build or a page', () => {
  const reasonOf = (source: string, translation: string, locale = 'fr-FR'): string | undefined => {
    const checked = checkIcuTranslation(source, translation, locale)
    return checked.ok ? undefined : checked.reason
  }

  test('nesting: more than 16 levels is refused, also when the parser itself runs out of stack', () => {
    expect(reasonOf(PLURAL, nested(16))).toBeUndefined()
    expect(reasonOf(PLURAL, nested(17))).toBe(
      'it has plural, select and tags nested more than 16 levels deep',
    )
    expect(reasonOf(PLURAL, nested(1000))).toBe(
      'it has plural, select and tags nested more than 16 levels deep',
    )
    // Twelve thousand tags in 84,000 characters: the parser's recursion gives out first.
    expect(reasonOf('<i>x</i>', `${'<i>'.repeat(12_000)}x${'</i>'.repeat(12_000)}`)).toBe(
      'it does not parse: plural, select and tags are nested too deeply to read (at character 0)',
    )
    // Tags count as levels too.
    expect(reasonOf('<b>x</b>', `${'<i>'.repeat(16)}<b>x</b>${'</i>'.repeat(16)}`)).toBe(
      'it has plural, select and tags nested more than 16 levels deep',
    )
    // And a compile of such a text (any caller) throws a clear error instead of exhausting a stack.
    expect(() => compileMessage(nested(1000), 'fr-FR')).toThrow(
      'plural, select and tags nested more than 16 levels deep',
    )
  })

  test('size: an ICU translation over 100,000 characters is refused before it is parsed', () => {
    const huge = `{count, plural, one {${'y'.repeat(100_000)}} other {# x}}`
    expect(reasonOf(PLURAL, huge)).toBe(
      `it has ${huge.length} characters; an ICU translation may have at most 100000`,
    )
    const arms = Array.from({ length: 20_000 }, (_, i) => `=${i} {#}`).join(' ')
    expect(reasonOf(PLURAL, `{count, plural, ${arms} other {#}}`)).toBe(
      `it has ${`{count, plural, ${arms} other {#}}`.length} characters; an ICU translation may have at most 100000`,
    )
  })

  test('numbers and dates: the Intl object the runtime would make is made, in the locale', () => {
    const furlong = intlSays(() => new Intl.NumberFormat('fr-FR', { style: 'unit', unit: 'furlong' }))
    expect(reasonOf('{n, number, ::unit/meter}', '{n, number, ::unit/furlong}')).toBe(
      `its {n, number, ::unit/furlong} cannot be formatted in fr-FR: Intl says "${furlong}"`,
    )
    const digits = intlSays(
      () => new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 101, maximumFractionDigits: 101 }),
    )
    expect(reasonOf('{n, number, ::.00}', `{n, number, ::.${'0'.repeat(101)}}`)).toBe(
      `its {n, number, ::.${'0'.repeat(101)}} cannot be formatted in fr-FR: Intl says "${digits}"`,
    )
    const noCode = intlSays(() => new Intl.NumberFormat('fr-FR', { style: 'currency' }))
    expect(reasonOf('Pay {n, number, ::currency/EUR}', 'Payer {n, number, currency}')).toBe(
      `its {n, number, currency} cannot be formatted in fr-FR: Intl says "${noCode}"`,
    )
    // A date skeleton Intl takes stays, in the locale's hour cycle.
    expect(reasonOf('{d, time, ::jjmm}', 'à {d, time, ::jjmm}')).toBeUndefined()
  })

  test('currencies: a translation formats money in the currencies of its source only', () => {
    expect(reasonOf('Pay {n, number, ::currency/EUR}', 'Payer {n, number, ::currency/XYZ123}')).toBe(
      'it formats money in XYZ123, where the source uses EUR',
    )
    expect(reasonOf('Pay {n, number, ::currency/EUR}', 'Payer {n, number, ::currency/USD}')).toBe(
      'it formats money in USD, where the source uses EUR',
    )
    expect(reasonOf('Pay {n, number}', 'Payer {n, number, ::currency/EUR}')).toBe(
      'it formats money in EUR, where the source formats no money',
    )
    expect(
      reasonOf('Pay {n, number, ::currency/EUR}', 'Payer {n, number, ::currency/eur .00}'),
    ).toBeUndefined()
  })

  test('tags are counted: a tag may not render more often than in the source', () => {
    expect(reasonOf('See <a>the terms</a>', 'Voir <a>les</a> <a>conditions</a>')).toBe(
      'it renders the tag <a> twice where the source renders it once',
    )
    expect(
      reasonOf(
        '{n, plural, one {<b>#</b>} other {<b>#</b>}}',
        '{n, plural, one {<b>#</b>} other {<b>#</b><b>!</b>}}',
      ),
    ).toBe('it renders the tag <b> twice where the source renders it once')
    // One per branch is one per rendering, whatever the branches the locale adds.
    expect(
      reasonOf(
        '{n, plural, one {<b>#</b>} other {<b>#</b>}}',
        '{n, plural, =0 {rien} one {<b>#</b>} few {<b>#</b>} many {<b>#</b>} other {<b>#</b>}}',
        'pl-PL',
      ),
    ).toBeUndefined()
    expect(reasonOf('<a>A</a> and <a>B</a>', '<a>A</a> et <a>B</a>')).toBeUndefined()
  })
})

describe('the same in a source message is an extraction error at file:line:col', () => {
  const options = resolveExtractOptions({ cwd: '/app' })
  const diagnosticsOf = (text: string) =>
    extractFromCode(
      '/app/src/a.js',
      `import { t } from 'unplugin-tms/runtime'\n  t(${JSON.stringify(text)})\n`,
      options,
    )

  test.each([
    [
      'Pay {n, number, ::currency/XYZ123}',
      `{n, number, ::currency/XYZ123} cannot be formatted: Intl says "${intlSays(() => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'XYZ123' }))}", at character 5`,
    ],
    [
      'Total: {n, number, currency}',
      `{n, number, currency} cannot be formatted: Intl says "${intlSays(() => new Intl.NumberFormat(undefined, { style: 'currency' }))}", at character 8`,
    ],
    [nested(17), 'plural, select and tags nested more than 16 levels deep, at character 1'],
  ])('%s', (text, problem) => {
    const fx = diagnosticsOf(text)
    expect(fx.messages).toEqual([])
    expect(fx.diagnostics).toHaveLength(1)
    expect(fx.diagnostics[0]).toMatchObject({ severity: 'error', code: 'icu-syntax', line: 2, column: 5 })
    expect(fx.diagnostics[0]!.message).toBe(
      `src/a.js:2:5: the text of t() is not valid ICU MessageFormat: ${problem} of ${JSON.stringify(text)}`,
    )
  })
})

describe('hostile translations in real builds: refused one by one, the rest ships', () => {
  const SOURCES = [PLURAL, 'Pay {price, number, ::currency/EUR}', 'See <a>the terms</a>', 'Hello {name}']
  const FRENCH: Record<string, string> = {
    [PLURAL]: nested(1000),
    'Pay {price, number, ::currency/EUR}': 'Payer {price, number, ::currency/XYZ123}',
    'See <a>the terms</a>': 'Voir <a>les conditions</a> et <a>encore</a>',
    'Hello {name}': 'Bonjour {name}',
  }
  // Each message twice: the second (variant `control`) has no translation, so it renders as a
  // refused translation must.
  const messages = SOURCES.flatMap((text) => [text, { text, variant: 'control' }])
  let project: IcuProject
  beforeAll(async () => {
    project = await setupIcuProject(
      messages,
      (text, _locale, variant) => (variant ? undefined : FRENCH[text]),
      ['fr-FR'],
    )
  }, 60_000)
  afterAll(() => project?.close())

  /** Each message formatted by the built app in French, in a child Node. */
  async function french(entry: string, setLocale: boolean): Promise<string[]> {
    const script = `
      const app = await import(${JSON.stringify(pathToFileURL(entry).href)})
      ${setLocale ? "await app.setLocale('fr-FR')" : ''}
      const values = { count: 2, price: 12.5, name: 'Ada', a: (chunks) => '[' + chunks.join('') + ']' }
      process.stdout.write(JSON.stringify(app.messages.map((m) => m(values))))`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
    return JSON.parse(stdout) as string[]
  }

  function expectRefusals(warnings: string[]): void {
    const line = (i: number) => 4 + i * 2
    const at = (source: string) => `(src/main.js:${line(SOURCES.indexOf(source))}:10)`
    const refused = (source: string, reason: string) =>
      expect.stringMatching(
        new RegExp(
          `^\\[plugin unplugin-tms\\] translation of [0-9a-f]{32} for fr-FR rejected: ${escapeRegex(reason)}; the source text ${escapeRegex(JSON.stringify(source))} ${escapeRegex(at(source))} is used until the translation is corrected on the service$`,
        ),
      )
    expect(warnings).toHaveLength(3)
    expect(warnings).toEqual(
      expect.arrayContaining([
        refused(PLURAL, 'it has plural, select and tags nested more than 16 levels deep'),
        refused(
          'Pay {price, number, ::currency/EUR}',
          'it formats money in XYZ123, where the source uses EUR',
        ),
        refused('See <a>the terms</a>', 'it renders the tag <a> twice where the source renders it once'),
      ]),
    )
  }

  function expectRendered(out: string[]): void {
    expect(out).toHaveLength(messages.length)
    // Refused: exactly as the untranslated twin; the good translation ships.
    for (let i = 0; i < 3; i++) expect(out[2 * i]).toBe(out[2 * i + 1])
    expect(out.slice(0, 6)).toEqual([out[1], out[1], out[3], out[3], 'See [the terms]', 'See [the terms]'])
    expect(out[0]).toBe('2 files')
    expect(out.slice(6)).toEqual(['Bonjour Ada', 'Hello Ada'])
  }

  test('runtime mode', async () => {
    const outDir = join(project.root, 'dist-runtime')
    expectRefusals(await buildWithWarnings(project.options(), outDir))
    expectRendered(await french(join(outDir, 'main.js'), true))
  }, 120_000)

  test('inline mode', async () => {
    const outDir = join(project.root, 'dist-inline')
    expectRefusals(await buildWithWarnings(project.options({ mode: 'inline' }), outDir))
    expectRendered(await french(join(outDir, 'fr-FR/main.js'), false))
  }, 120_000)
})

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
