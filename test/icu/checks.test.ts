import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { rollup } from 'rollup'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { checkIcuTranslation } from '../../src/core/icu/check'
import { formatReport } from '../../src/core/report'
import tmsRollup from '../../src/rollup'
import { type IcuProject, setupIcuProject } from './project'

const FILES = '{count, plural, one {# file} other {# files}} for {name}'

describe('checkIcuTranslation', () => {
  test.each([
    [
      'does not parse',
      '{count, plural, one {# fichier} other {# fichiers}',
      /^it does not parse: an argument is not closed with \} \(at character \d+\)$/,
    ],
    [
      'uses an argument the source lacks',
      '{count, plural, one {# fichier} other {# fichiers}} pour {name} {extra}',
      /^it uses the argument \{extra\}, which the source does not$/,
    ],
    [
      'changes an argument kind',
      '{count, select, one {# fichier} other {# fichiers}} pour {name}',
      /^it uses \{count\} as select where the source uses it as plural$/,
    ],
    [
      'changes plural to number',
      '{count, number} fichiers pour {name}',
      /^it uses \{count\} as number where the source uses it as plural$/,
    ],
    [
      'lacks other',
      '{count, plural, one {# fichier} many {# fichiers}} pour {name}',
      /^it lacks `other`: a plural or select has no `other` branch$/,
    ],
    [
      'drops an argument',
      '{count, plural, one {# fichier} other {# fichiers}}',
      /^it drops the argument \{name\}$/,
    ],
  ])('rejects a translation that %s', (_what, translation, reason) => {
    const checked = checkIcuTranslation(FILES, translation, 'fr-FR')
    expect(checked.ok).toBe(false)
    expect(!checked.ok && checked.reason).toMatch(reason)
  })

  const RICH =
    'See <link>the <b>new</b> terms</link> and {count, plural, one {<em>#</em> file} other {<em>#</em> files}}'
  test.each([
    [
      'drops a tag',
      'Voir <link>les conditions</link> et {count, plural, one {<em>#</em> x} other {<em>#</em> y}}',
      'it drops the tag <b>',
    ],
    [
      'adds a tag',
      'Voir <link>les <b>nouvelles</b> <i>conditions</i></link> et {count, plural, one {<em>#</em> x} other {<em>#</em> y}}',
      'it has the tag <i>, which the source does not',
    ],
    [
      'renames a tag',
      'Voir <a>les <b>nouvelles</b> conditions</a> et {count, plural, one {<em>#</em> x} other {<em>#</em> y}}',
      'it has the tag <a>, which the source does not',
    ],
    [
      'nests a tag elsewhere',
      'Voir <link>les conditions</link> <b>nouvelles</b> et {count, plural, one {<em>#</em> x} other {<em>#</em> y}}',
      'it has the tag <b> outside any tag where the source has it inside <link>',
    ],
    [
      'nests the tags the other way round',
      'Voir <b>les <link>nouvelles</link> conditions</b> et {count, plural, one {<em>#</em> x} other {<em>#</em> y}}',
      'it has the tag <b> outside any tag where the source has it inside <link>',
    ],
    [
      'drops a tag from a plural branch',
      'Voir <link>les <b>nouvelles</b> conditions</link> et {count, plural, one {# x} other {# y}}',
      'it drops the tag <em>',
    ],
    [
      'leaves a tag open',
      'Voir <link>les <b>nouvelles</b> conditions et {count, plural, one {<em>#</em> x} other {<em>#</em> y}}',
      "it does not parse: a tag is not closed (a literal < is written '<') (at character 5)",
    ],
  ])('rejects a translation of a tagged message that %s', (_what, translation, reason) => {
    expect(checkIcuTranslation(RICH, translation, 'fr-FR')).toEqual({ ok: false, reason })
  })

  test('accepts tags moved around, and a tag in every branch the locale adds', () => {
    expect(
      checkIcuTranslation(
        RICH,
        '{count, plural, one {<em>#</em> plik} few {<em>#</em> pliki} many {<em>#</em> plików} other {<em>#</em> pliku}}: <link><b>nowe</b> warunki</link>',
        'pl-PL',
      ),
    ).toEqual({ ok: true, warnings: [], missingCategories: [] })
  })

  test('a category the locale does not use is a warning; one it needs and lacks makes it incomplete', () => {
    expect(
      checkIcuTranslation(
        FILES,
        '{count, plural, one {# plik} few {# pliki} two {# x} other {# plików}} dla {name}',
        'pl-PL',
      ),
    ).toEqual({
      ok: true,
      warnings: ['{count, plural} has the category two, which pl-PL does not use'],
      missingCategories: ['many'],
    })
    expect(
      checkIcuTranslation(
        FILES,
        '{count, plural, =0 {zero} one {# plik} few {# pliki} many {# plików} other {# pliku}} dla {name}',
        'pl-PL',
      ),
    ).toEqual({ ok: true, warnings: [], missingCategories: [] })
  })
})

describe('extraction of ICU source messages', () => {
  const options = resolveExtractOptions({ cwd: '/app' })
  test.each([
    [
      "t('Hi {name')",
      /^src\/a\.js:2:5: the text of t\(\) is not valid ICU MessageFormat: an argument is not closed with \}, at character 4 of "Hi \{name"$/,
    ],
    [
      "t('{n, plural, one {x}}')",
      /^src\/a\.js:2:5: the text of t\(\) is not valid ICU MessageFormat: a plural or select has no `other` branch, at character 20 of "\{n, plural, one \{x\}\}"$/,
    ],
    ["t('{n, select, a {x}}')", /a plural or select has no `other` branch/],
    ["t('{n, foo}')", /an argument type is not one of number, date, time, plural, selectordinal, select/],
  ])('%s is an error at file:line:col with the position in the message', (call, message) => {
    const fx = extractFromCode(
      '/app/src/a.js',
      `import { t } from 'unplugin-tms/runtime'\n  ${call}\n`,
      options,
    )
    expect(fx.messages).toEqual([])
    expect(fx.diagnostics).toHaveLength(1)
    expect(fx.diagnostics[0]).toMatchObject({ severity: 'error', code: 'icu-syntax', line: 2, column: 5 })
    expect(fx.diagnostics[0]!.message).toMatch(message)
  })
})

describe('translations checked in a build', () => {
  const SOURCES = [FILES, 'Hello {name}', '{g, select, a {A} other {B}}']
  const TRANSLATIONS: Record<string, Record<string, string>> = {
    'fr-FR': {
      // Rejected: argument kind changed.
      [FILES]: '{count, select, one {# fichier} other {# fichiers}} pour {name}',
      'Hello {name}': 'Bonjour {name}',
      '{g, select, a {A} other {B}}': '{g, select, a {Á} other {É}}',
    },
    'pl-PL': {
      // Used, but incomplete: Polish needs few and many.
      [FILES]: '{count, plural, one {# plik} other {# pliku}} dla {name}',
      'Hello {name}': 'Cześć {name}',
      // Rejected: it lacks other.
      '{g, select, a {A} other {B}}': '{g, select, a {A} b {B}}',
    },
  }
  let project: IcuProject
  beforeAll(async () => {
    project = await setupIcuProject(SOURCES, (s, l) => TRANSLATIONS[l]![s], ['fr-FR', 'pl-PL'])
  }, 60_000)
  afterAll(() => project?.close())

  test('a bad translation is rejected with one warning naming hashcode, locale and problem; the report lists incomplete ones', async () => {
    const warnings: string[] = []
    const infos: string[] = []
    const outDir = join(project.root, 'dist')
    const bundle = await rollup({
      input: join(project.root, 'src/main.js'),
      plugins: [tmsRollup(project.options({ report: true }))],
      onLog: (level, log) => {
        if (level === 'warn') warnings.push(log.message)
        if (level === 'info') infos.push(log.message)
      },
    })
    await bundle.write({ dir: outDir, format: 'es' })
    await bundle.close()
    const rejected = warnings.filter((w) => w.includes('rejected'))
    expect(rejected).toHaveLength(2)
    expect(rejected[0]).toMatch(
      /translation of [0-9a-f]{32} for (fr-FR|pl-PL) rejected: (it uses \{count\} as select where the source uses it as plural|it lacks `other`: a plural or select has no `other` branch); the source text "[^"]+" \(src\/main\.js:\d+:\d+\) is used/,
    )
    expect(
      rejected.some((w) =>
        /for fr-FR rejected: it uses \{count\} as select where the source uses it as plural/.test(w),
      ),
    ).toBe(true)
    expect(rejected.some((w) => /for pl-PL rejected: it lacks `other`/.test(w))).toBe(true)
    const report = JSON.parse(readFileSync(join(outDir, 'tms-report.json'), 'utf8'))
    expect(report.locales['pl-PL']).toMatchObject({ messages: 3, translated: 2, missing: 1 })
    expect(report.locales['pl-PL'].incomplete).toEqual([expect.stringMatching(/^[0-9a-f]{32}: few, many$/)])
    expect(report.locales['fr-FR'].incomplete).toBeUndefined()
    // The incomplete translation is named with its message, its place, the categories and the fix.
    const hashcode = report.locales['pl-PL'].incomplete[0].slice(0, 32)
    expect(infos.filter((i) => i.includes('lack'))).toEqual([
      `[plugin unplugin-tms] pl-PL: 1 ICU translation lacks plural categories pl-PL needs, so numbers of those categories show the \`other\` branch: ${hashcode} "${FILES}" (src/main.js:4:10) lacks few, many. Add the categories to the translation on the service.`,
      expect.stringContaining(
        `pl-PL: 1 ICU translation lacks plural categories the locale needs (${hashcode}: few, many): add them on the service`,
      ),
    ])
  }, 120_000)
})

test('the printed report counts and names the incomplete ICU translations of a locale', () => {
  const text = formatReport({
    locales: {
      'pl-PL': {
        messages: 3,
        translated: 2,
        missing: 1,
        coverage: 66.6,
        incomplete: ['a'.repeat(32) + ': few, many'],
      },
      'fr-FR': { messages: 3, translated: 3, missing: 0, coverage: 100 },
    },
    pushed: 0,
    requests: 0,
  })
  expect(text.split('\n').slice(3)).toEqual([
    `pl-PL: 1 ICU translation lacks plural categories the locale needs (${'a'.repeat(32)}: few, many): add them on the service (incomplete in the JSON report)`,
    '0 new strings pushed, 0 requests made',
  ])
})
