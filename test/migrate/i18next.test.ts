import { describe, expect, test } from 'vitest'
import { sourceTextsOf } from '../../src/core/migrate/catalog'
import { migrateSource } from '../../src/core/migrate/index'

/**
 * i18next's keys into the source locale's texts, from a catalog read as `tms import` reads it: plural
 * suffixes and contexts as ICU, `{{x}}` as `{x}`, react-i18next's `<Trans>` components as tags.
 */

const EN = JSON.stringify(
  {
    title: 'Shop',
    greeting: 'Hello {{name}}!',
    items_one: '{{count}} item',
    items_other: '{{count}} items',
    friend: 'A friend',
    friend_male: 'A boyfriend',
    friend_female: 'A girlfriend',
    terms: 'Read the <link>terms</link>.<br/>Thanks, <strong>{{name}}</strong>',
    nav: { home: 'Home' },
  },
  null,
  2,
)
const COMMON = JSON.stringify({ save: 'Save' })
const texts = sourceTextsOf(
  [
    { file: 'public/locales/en/translation.json', namespace: 'translation', text: EN },
    { file: 'public/locales/en/common.json', namespace: 'common', text: COMMON },
  ],
  'en',
)

function migrate(code: string, file = 'src/App.jsx'): string {
  const once = migrateSource(file, code, { from: 'i18next', sourceTexts: texts })
  expect(
    migrateSource(file, once.code, { from: 'i18next', sourceTexts: texts }).code,
    'a second run changes nothing',
  ).toBe(once.code)
  return once.code
}

describe('i18next', () => {
  test('t(key) with values, count and context; namespaces; useTranslation becomes useLocale', () => {
    expect(
      migrate(`import { useTranslation } from 'react-i18next'

export function Page({ name, count, gender }) {
  const { t, i18n } = useTranslation()
  return (
    <main>
      <h1>{t('title')}</h1>
      <p>{t('greeting', { name })}</p>
      <p>{t('items', { count })}</p>
      <p>{t('friend', { context: gender })}</p>
      <a href="/">{t('nav.home')}</a>
      <button onClick={() => i18n.changeLanguage('fr')}>{t('common:save')}</button>
    </main>
  )
}
`),
    ).toBe(`import { useLocale } from 'unplugin-tms/react'
import { setLocale, t } from 'unplugin-tms/runtime'

export function Page({ name, count, gender }) {
  useLocale()
  return (
    <main>
      <h1>{t('Shop')}</h1>
      <p>{t('Hello {name}!', { name })}</p>
      <p>{t('{count, plural, one {{count} item} other {{count} items}}', { count })}</p>
      <p>{t('{context, select, male {A boyfriend} female {A girlfriend} other {A friend}}', { context: gender })}</p>
      <a href="/">{t('Home')}</a>
      <button onClick={() => setLocale('fr')}>{t('Save')}</button>
    </main>
  )
}
`)
  })

  test("useTranslation('common') looks keys up in that namespace; the i18next instance's t too", () => {
    expect(
      migrate(`import i18next from 'i18next'
import { useTranslation } from 'react-i18next'

export const label = () => i18next.t('title')
export function Save() {
  const { t } = useTranslation('common')
  return <button>{t('save')}</button>
}
`),
    ).toBe(`import { useLocale } from 'unplugin-tms/react'
import { t } from 'unplugin-tms/runtime'

export const label = () => t('Shop')
export function Save() {
  useLocale()
  return <button>{t('Save')}</button>
}
`)
  })

  test('<Trans i18nKey> with components becomes <T msg> whose tag functions wrap the same elements', () => {
    expect(
      migrate(`import { Trans } from 'react-i18next'

export const Terms = ({ name }) => (
  <p>
    <Trans i18nKey="terms" values={{ name }} components={{ link: <a href="/terms" /> }} />
  </p>
)
`),
    ).toBe(`import { T } from 'unplugin-tms/react'
import { msg } from 'unplugin-tms/runtime'

export const Terms = ({ name }) => (
  <p>
    <T msg={msg('Read the <link>terms</link>.<br></br>Thanks, <strong>{name}</strong>')} values={{ name, link: (chunks) => <a key="link" href="/terms">{chunks}</a>, br: () => <br key="br" />, strong: (chunks) => <strong key="strong">{chunks}</strong> }} />
  </p>
)
`)
  })

  test('refused: an unknown key, a key that is not a literal, a Trans without i18nKey; the hook stays with its t', () => {
    expect(
      migrate(`import { Trans, useTranslation } from 'react-i18next'

export function Menu({ item }) {
  const { t } = useTranslation()
  return (
    <ul>
      <li>{t('title')}</li>
      <li>{t('missing.key')}</li>
      <li>{t(item.key)}</li>
      <Trans>Hello <b>you</b></Trans>
    </ul>
  )
}
`),
    ).toBe(`import { Trans, useTranslation } from 'react-i18next'

export function Menu({ item }) {
  // TODO(tms): useTranslation stays: 2 of its 3 uses could not be converted (TODOs below), so this component keeps useTranslation and its other uses as they are
  const { t } = useTranslation()
  return (
    <ul>
      <li>{t('title')}</li>
      <li>{/* TODO(tms): the key missing.key has no text in the source locale's catalog */}{t('missing.key')}</li>
      <li>{/* TODO(tms): its key is not a literal, so its text cannot be looked up; write the text with t by hand */}{t(item.key)}</li>
      {/* TODO(tms): <Trans> without a literal i18nKey takes its key from its children; give it an i18nKey, or write it as <T> by hand */}
      <Trans>Hello <b>you</b></Trans>
    </ul>
  )
}
`)
  })
})
