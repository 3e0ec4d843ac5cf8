import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { localeMapOf } from '../../../src/cli/import'
import { appLocaleFor, readCatalogs } from '../../../src/core/import/read'
import { findCatalogFiles } from '../../../src/core/migrate/catalog'

/**
 * A catalog's locale among the app's, by i18next's fallback: an app locale `fr-FR` is served by a
 * `fr-FR` catalog, else by `fr`, never by `fr-CA`; `--locale-map` decides the rest.
 */

const app = { sourceLocale: 'en-US', locales: ['fr-FR', 'fr-CA', 'de-DE', 'pt-PT'] }

describe('appLocaleFor', () => {
  it('takes the same tag, then a language alone as its only app locale, and the source first', () => {
    expect(appLocaleFor('de-DE', app)).toEqual({ locale: 'de-DE' })
    expect(appLocaleFor('de', app)).toEqual({ locale: 'de-DE' })
    expect(appLocaleFor('en', app)).toEqual({ locale: 'source' })
    expect(appLocaleFor('en-us', app)).toEqual({ locale: 'source' })
  })

  it('refuses a region the app lacks, a language with two locales, a language it lacks, each with the flag', () => {
    expect(appLocaleFor('pt-BR', app)).toEqual({
      problem:
        "its locale pt-BR is none of the app's locales (the app's are en-US (source), fr-FR, fr-CA, de-DE, pt-PT); a catalog of pt-BR serves only pt-BR, so name the app's locale it goes to with --locale-map pt-BR=<locale>",
    })
    expect(appLocaleFor('en-GB', app)).toEqual({
      problem:
        "its locale en-GB is none of the app's locales (the app's are en-US (source), fr-FR, fr-CA, de-DE, pt-PT); a catalog of en-GB serves only en-GB, so name the app's locale it goes to with --locale-map en-GB=<locale>",
    })
    expect(appLocaleFor('fr', app)).toEqual({
      problem:
        'its locale fr would serve fr-FR and fr-CA alike, and which one takes its translations is not guessed: name it with --locale-map fr=fr-FR',
    })
    expect(appLocaleFor('ja', app)).toEqual({
      problem:
        "its locale ja is not a language of the app (the app's are en-US (source), fr-FR, fr-CA, de-DE, pt-PT); add a locale of it to the app, or name one with --locale-map ja=<locale>",
    })
  })

  it('follows --locale-map, which must name one of the app locales', () => {
    expect(appLocaleFor('fr', { ...app, localeMap: { fr: 'fr-CA' } })).toEqual({ locale: 'fr-CA' })
    expect(appLocaleFor('pt-BR', { ...app, localeMap: { 'pt-BR': 'pt-PT' } })).toEqual({ locale: 'pt-PT' })
    expect(appLocaleFor('fr', { ...app, localeMap: { fr: 'fr-BE' } })).toEqual({
      problem:
        "--locale-map maps fr to fr-BE, which is not one of the app's locales (the app's are en-US (source), fr-FR, fr-CA, de-DE, pt-PT)",
    })
  })

  it('reads locales/fr/translation.json into fr-FR for an app of fr-FR, and refuses the ambiguous file by name', () => {
    const files = [
      { file: 'locales/en/translation.json', text: '{"hi": "Hello"}' },
      { file: 'locales/fr/translation.json', text: '{"hi": "Bonjour"}' },
    ]
    const one = readCatalogs('i18next', files, { sourceLocale: 'en-US', locales: ['fr-FR'] })
    expect(one.files.map((f) => [f.file, f.fileLocale, f.locale])).toEqual([
      ['locales/en/translation.json', 'en', 'source'],
      ['locales/fr/translation.json', 'fr', 'fr-FR'],
    ])
    expect(one.targets.map((t) => [t.locale, t.messages])).toEqual([
      ['fr-FR', [{ key: 'hi', source: 'Hello', text: 'Bonjour', line: 1 }]],
    ])
    const two = readCatalogs('i18next', files, { sourceLocale: 'en-US', locales: ['fr-FR', 'fr-CA'] })
    expect(two.targets).toEqual([])
    expect(two.refusals).toEqual([
      {
        file: 'locales/fr/translation.json',
        line: 1,
        reason:
          'its locale fr would serve fr-FR and fr-CA alike, and which one takes its translations is not guessed: name it with --locale-map fr=fr-FR',
      },
    ])
  })
})

describe('--locale-map', () => {
  it('reads repeated and comma-separated pairs, and names a malformed one', () => {
    expect(localeMapOf(['fr=fr-CA', 'pt_BR=pt-PT,de = de-AT'])).toEqual({
      fr: 'fr-CA',
      'pt-BR': 'pt-PT',
      de: 'de-AT',
    })
    expect(() => localeMapOf('fr:fr-CA')).toThrow(
      "--locale-map fr:fr-CA: write the file's locale, =, and the app's locale it goes to (--locale-map fr=fr-CA)",
    )
  })
})

describe('tms migrate --source-locale en-US', () => {
  it('finds the `en` catalog when there is no `en-US` one, as i18next serves en-US from en', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tms-locale-'))
    try {
      mkdirSync(join(dir, 'public/locales/en'), { recursive: true })
      writeFileSync(join(dir, 'public/locales/en/common.json'), '{}')
      expect(findCatalogFiles(dir, undefined, 'en-US')).toEqual([
        { file: join(dir, 'public/locales/en/common.json'), namespace: 'common' },
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
