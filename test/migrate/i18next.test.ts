import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { sourceTextsOf } from '../../src/core/migrate/catalog'
import { migrateSource } from '../../src/core/migrate/index'
import { migrateProject } from '../../src/core/migrate/project'
import { formatSummary } from '../../src/core/migrate/summary'

/**
 * i18next's keys into the source locale's texts, from a catalog read as `tms import` reads it: plural
 * suffixes and contexts as ICU, `{{x}}` as `{x}`, react-i18next's `<Trans>` components as tags.
 */

const EN = JSON.stringify(
  {
    title: 'Shop',
    title_short: 'Shop (short)',
    step_one: 'Step one',
    greeting: 'Hello {{name}}!',
    items_one: '{{count}} item',
    items_other: '{{count}} items',
    friend: 'A friend',
    friend_male: 'A boyfriend',
    friend_female: 'A girlfriend',
    terms: 'Read the <link>terms</link>.<br/>Thanks, <strong>{{name}}</strong>',
    nav: { home: 'Home' },
    welcome: 'Hello <1>{{name}}</1>, see <3>docs</3>',
    nested: 'Click <1>the <1>docs</1> page</1> or <strong>here</strong>',
    'Welcome <strong>{{name}}</strong>': 'Welcome back, <strong>{{name}}</strong>!',
    listed: 'An <0>old</0> and a <1>new</1> one',
    atText: 'See <0>this</0>',
  },
  null,
  2,
)
const COMMON = JSON.stringify({ save: 'Save' })
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
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
      <small>{t('title_short')}</small>
      <small>{t('step_one')}</small>
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
      <small>{t('Shop (short)')}</small>
      <small>{t('Step one')}</small>
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

  test('refused: an unknown key, a key that is not a literal; the hook stays with its t; a Trans keyed by its children converts', () => {
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
    ).toBe(`import { T } from 'unplugin-tms/react'
import { msg } from 'unplugin-tms/runtime'
import { useTranslation } from 'react-i18next'

export function Menu({ item }) {
  // TODO(tms): useTranslation stays: 2 of its 3 uses could not be converted (TODOs below), so this component keeps useTranslation and its other uses as they are
  const { t } = useTranslation()
  return (
    <ul>
      <li>{t('title')}</li>
      <li>{/* TODO(tms): the key missing.key has no text in the source locale's catalog */}{t('missing.key')}</li>
      <li>{/* TODO(tms): its key is not a literal, so its text cannot be looked up; write the text with t by hand */}{t(item.key)}</li>
      <T msg={msg('Hello <b>you</b>')} values={{ b: (chunks) => <b key="b">{chunks}</b> }} />
    </ul>
  )
}
`)
  })

  test("<Trans>'s numbered tags are its children by react-i18next's index, named as <T> names elements", () => {
    expect(
      migrate(`import { Trans } from 'react-i18next'
import { Link } from './router'

export const Welcome = ({ name, user }) => (
  <div>
    <Trans i18nKey="welcome">
      Hello <strong>{{ name }}</strong>, see <Link to="/">docs</Link>
    </Trans>
    <Trans i18nKey="nested">
      Click <a href="/docs">the <b className="k">docs</b> page</a> or <strong>here</strong>
    </Trans>
    <Trans>Welcome <strong>{{ name: user.name }}</strong></Trans>
    <Trans i18nKey="listed" components={[<em />, <a href="/new" />]} />
    <Trans i18nKey="missing">Fallback <i>text</i> and <Link to="/x">more</Link></Trans>
  </div>
)
`),
    ).toBe(`import { T } from 'unplugin-tms/react'
import { msg } from 'unplugin-tms/runtime'
import { Link } from './router'

export const Welcome = ({ name, user }) => (
  <div>
    <T msg={msg('Hello <strong>{name}</strong>, see <Link>docs</Link>')} values={{ name, strong: (chunks) => <strong key="strong">{chunks}</strong>, Link: (chunks) => <Link key="Link" to="/">{chunks}</Link> }} />
    <T msg={msg('Click <a>the <b>docs</b> page</a> or <strong>here</strong>')} values={{ a: (chunks) => <a key="a" href="/docs">{chunks}</a>, b: (chunks) => <b key="b" className="k">{chunks}</b>, strong: (chunks) => <strong key="strong">{chunks}</strong> }} />
    <T msg={msg('Welcome back, <strong>{name}</strong>!')} values={{ name: user.name, strong: (chunks) => <strong key="strong">{chunks}</strong> }} />
    <T msg={msg('An <em>old</em> and a <a>new</a> one')} values={{ em: (chunks) => <em key="em">{chunks}</em>, a: (chunks) => <a key="a" href="/new">{chunks}</a> }} />
    <T msg={msg('Fallback <i>text</i> and <Link>more</Link>')} values={{ i: (chunks) => <i key="i">{chunks}</i>, Link: (chunks) => <Link key="Link" to="/x">{chunks}</Link> }} />
  </div>
)
`)
  })

  test('refused: a numbered tag on a text child, a Trans whose key needs a run-time value', () => {
    const code = migrate(`import { Trans } from 'react-i18next'

export const A = ({ name }) => (
  <p>
    <Trans i18nKey="atText">See <b>this</b></Trans>
    <Trans>Hi {name}</Trans>
  </p>
)
`)
    expect(code).toContain(
      '{/* TODO(tms): its tag <0> is the text "See " of <Trans> (react-i18next counts the children from 0: texts, values and elements alike) */}',
    )
    expect(code).toContain(
      '{/* TODO(tms): <Trans> without i18nKey takes its key from its children, and a child here ({expression}) is only known at run time; give it an i18nKey */}',
    )
  })

  test("withTranslation()(Component): the component's t from props converts, the wrapper re-renders on a switch", () => {
    expect(
      migrate(`import React, { Component } from 'react'
import { withTranslation } from 'react-i18next'

class LegacyTitle extends Component {
  render() {
    const { t } = this.props
    return <h2>{t('title')}</h2>
  }
}
function Greeting(props) {
  const { t, name } = props
  return <p>{t('greeting', { name })}</p>
}
export const Title = withTranslation()(LegacyTitle)
export const Hello = withTranslation('translation')(Greeting)
export const Elsewhere = withTranslation()(Imported)
`),
    ).toBe(`import React, { Component } from 'react'
import { useLocale } from 'unplugin-tms/react'
import { t } from 'unplugin-tms/runtime'
import { withTranslation } from 'react-i18next'

class LegacyTitle extends Component {
  render() {
    return <h2>{t('Shop')}</h2>
  }
}
function Greeting(props) {
  const { name } = props
  return <p>{t('Hello {name}!', { name })}</p>
}
export const Title = function LegacyTitleWithLocale(props) {
  useLocale()
  return <LegacyTitle {...props} />
}
export const Hello = function GreetingWithLocale(props) {
  useLocale()
  return <Greeting {...props} />
}
// TODO(tms): withTranslation wraps a component this file does not declare, so where it reads t is not followed; call t from unplugin-tms/runtime in the component
export const Elsewhere = withTranslation()(Imported)
`)
  })
})

describe('the summary of a project half converted', () => {
  const project = (files: Record<string, string>): string => {
    const dir = mkdtempSync(join(tmpdir(), 'tms-migrate-switch-'))
    dirs.push(dir)
    mkdirSync(join(dir, 'public/locales/en'), { recursive: true })
    writeFileSync(join(dir, 'public/locales/en/translation.json'), EN)
    mkdirSync(join(dir, 'src'))
    for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, 'src', name), code)
    return formatSummary(migrateProject({ from: 'i18next', paths: [], cwd: dir, dryRun: true }))
  }
  const SWITCH = `import { useTranslation } from 'react-i18next'
export function Switch() {
  const { t, i18n } = useTranslation()
  return <button onClick={() => i18n.changeLanguage('fr')}>{t('title')}</button>
}
`
  const NOTE =
    "note: i18n.changeLanguage became setLocale, which switches unplugin-tms only; the i18next uses left above keep i18next's language: call i18next.changeLanguage(locale) beside setLocale(locale) until they are rewritten"

  test('says that a switch converted to setLocale no longer moves the i18next uses left with a TODO', () => {
    const summary = project({
      'Switch.jsx': SWITCH,
      'Footer.jsx': `import { useTranslation } from 'react-i18next'
export function Footer({ code }) {
  const { t } = useTranslation()
  return <small>{t(\`errors.\${code}\`)}</small>
}
`,
    })
    expect(summary).toContain(
      'src/Footer.jsx:4:18  its key is not a literal, so its text cannot be looked up; write the text with t by hand',
    )
    expect(summary.split('\n')).toContain(NOTE)
  })

  test('says nothing of it when every use was converted', () => {
    expect(project({ 'Switch.jsx': SWITCH })).not.toContain('note:')
  })
})
