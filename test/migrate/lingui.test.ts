import { describe, expect, test } from 'vitest'
import { migrateSource } from '../../src/core/migrate/index'

/**
 * Lingui's macros and components, each converted with exact before/after text; what cannot be
 * converted stays as written with its TODO(tms) comment; a second run changes nothing.
 */

function migrate(code: string, file = 'src/App.tsx'): string {
  const once = migrateSource(file, code, { from: 'lingui' })
  expect(migrateSource(file, once.code, { from: 'lingui' }).code, 'a second run changes nothing').toBe(
    once.code,
  )
  return once.code
}

describe('lingui: t and msg macros', () => {
  test('tagged t with plain names keeps its template; the import becomes ours', () => {
    expect(
      migrate(`import { t } from '@lingui/core/macro'

export const hello = (name: string) => t\`Hello \${name}\`
`),
    ).toBe(`import { t } from 'unplugin-tms/runtime'

export const hello = (name: string) => t\`Hello \${name}\`
`)
  })

  test('t with a descriptor: message, context and comment become the text, variant and instruction', () => {
    expect(
      migrate(`import { t } from '@lingui/macro'
const a = t({ id: 'menu.open', message: \`Open \${file.name}\`, context: 'menu', comment: 'A menu item' })
`),
    ).toBe(`import { t } from 'unplugin-tms/runtime'
const a = t('Open {name}', { name: file.name }, { variant: 'menu', instruction: 'A menu item' })
`)
  })

  test('plural, select and selectOrdinal inside t and on their own become ICU text', () => {
    expect(
      migrate(`import { plural, select, selectOrdinal, t } from '@lingui/core/macro'
const a = t\`You have \${plural(count, { 0: 'no files', one: '# file', other: '# files' })}\`
const b = select(gender, { male: 'He', female: 'She', other: 'They' })
const c = t\`\${selectOrdinal(place, { one: '#st', two: '#nd', few: '#rd', other: '#th' })} place\`
const d = plural(items.length, { one: \`# item for \${name}\`, other: '# items' })
`),
    ).toBe(`import { t } from 'unplugin-tms/runtime'
const a = t('You have {count, plural, =0 {no files} one {# file} other {# files}}', { count })
const b = t('{gender, select, male {He} female {She} other {They}}', { gender })
const c = t('{place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place', { place })
const d = t('{length, plural, one {# item for {name}} other {# items}}', { length: items.length, name })
`)
  })

  test('msg and defineMessage become msg descriptors; t(descriptor) calls the descriptor', () => {
    expect(
      migrate(`import { defineMessage, msg, t } from '@lingui/core/macro'

export const red = msg\`Red\`
export const open = defineMessage({ message: 'Open', context: 'menu' })
export const label = () => t(red)
`),
    ).toBe(`import { msg } from 'unplugin-tms/runtime'

export const red = msg\`Red\`
export const open = msg('Open', undefined, { variant: 'menu' })
export const label = () => red()
`)
  })
})

describe('lingui: components', () => {
  test('<Trans> becomes <T> with its children; an explicit id is dropped, comment and context kept', () => {
    expect(
      migrate(`import { Trans } from '@lingui/react/macro'

export function Header({ user }) {
  return (
    <Trans id="header.welcome" comment="Top of the page" context="header">
      Welcome <b>{user.name}</b>, see <a href="/docs">the docs</a>
    </Trans>
  )
}
`),
    ).toBe(`import { T } from 'unplugin-tms/react'

export function Header({ user }) {
  return (
    <T instruction="Top of the page" variant="header">
      Welcome <b>{user.name}</b>, see <a href="/docs">the docs</a>
    </T>
  )
}
`)
  })

  test('<Plural>, <Select> and <SelectOrdinal> become <T msg> with ICU text', () => {
    expect(
      migrate(`import { Plural, Select, SelectOrdinal } from '@lingui/react/macro'

export const Books = ({ count, gender, place }) => (
  <p>
    <Plural value={count} _0="No books" one="# book" other="# books" />
    <Select value={gender} _male="his" _female="her" other="their" />
    <SelectOrdinal value={place} one="#st" two="#nd" few="#rd" other="#th" />
  </p>
)
`),
    ).toBe(`import { T } from 'unplugin-tms/react'
import { msg } from 'unplugin-tms/runtime'

export const Books = ({ count, gender, place }) => (
  <p>
    <T msg={msg('{count, plural, =0 {No books} one {# book} other {# books}}', { count })} />
    <T msg={msg('{gender, select, male {his} female {her} other {their}}', { gender })} />
    <T msg={msg('{place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', { place })} />
  </p>
)
`)
  })

  test("useLingui's t becomes our t, and the hook useLocale (the component still re-renders on a switch)", () => {
    expect(
      migrate(`import { useLingui } from '@lingui/react/macro'

export function Button({ count }) {
  const { t } = useLingui()
  return <button title={t\`Close\`}>{t\`\${count} left\`}</button>
}
`),
    ).toBe(`import { useLocale } from 'unplugin-tms/react'
import { t } from 'unplugin-tms/runtime'

export function Button({ count }) {
  useLocale()
  return <button title={t\`Close\`}>{t\`\${count} left\`}</button>
}
`)
  })

  test('the provider and i18n setup are listed, not removed', () => {
    const result = migrateSource(
      'src/main.tsx',
      `import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'

i18n.load('en', messages)
i18n.activate('en')
export const Root = () => <I18nProvider i18n={i18n}><App /></I18nProvider>
`,
      { from: 'lingui' },
    )
    expect(result.changed).toBe(false)
    expect(result.setup.map((s) => `${s.line}:${s.column} ${s.what}`)).toEqual([
      '4:1 i18n.load(...) from @lingui/core: replace with setLocale(locale) from unplugin-tms/runtime',
      '5:1 i18n.activate(...) from @lingui/core: replace with setLocale(locale) from unplugin-tms/runtime',
      '6:27 <I18nProvider> from @lingui/react: remove it (unplugin-tms needs no provider)',
    ])
  })
})

describe('lingui: refused, with a TODO and nothing changed there', () => {
  test('an unnamed expression in <Trans>, a nested <Plural>, an offset; their imports stay', () => {
    const before = `import { plural, t } from '@lingui/core/macro'
import { Plural, Trans } from '@lingui/react/macro'

export function Cart({ items, count }) {
  const a = t\`\${plural(count, { offset: 1, one: '# item', other: '# items' })}\`
  return (
    <div>
      <Trans>Total: {items.length * 2}</Trans>
      <Trans>
        You have <Plural value={count} one="# item" other="# items" />
      </Trans>
      <Trans>Done</Trans>
    </div>
  )
}
`
    const result = migrateSource('src/Cart.tsx', before, { from: 'lingui' })
    expect(result.code).toBe(`import { T } from 'unplugin-tms/react'
import { plural, t } from '@lingui/core/macro'
import { Plural, Trans } from '@lingui/react/macro'

export function Cart({ items, count }) {
  // TODO(tms): its plural has an offset, which this migration does not convert; write the ICU text by hand
  const a = t\`\${plural(count, { offset: 1, one: '# item', other: '# items' })}\`
  return (
    <div>
      {/* TODO(tms): {items.length * 2} has no name in a message; give it one first (const x = ...) and write {x} */}
      <Trans>Total: {items.length * 2}</Trans>
      {/* TODO(tms): <Plural> inside a message has no JSX form in unplugin-tms; write the whole message as ICU text with t (docs/migrating.md) */}
      <Trans>
        You have <Plural value={count} one="# item" other="# items" />
      </Trans>
      <T>Done</T>
    </div>
  )
}
`)
    expect(result.left.map((l) => `${l.line}:${l.column}`)).toEqual(['5:13', '8:7', '9:7'])
    expect(migrateSource('src/Cart.tsx', result.code, { from: 'lingui' }).code).toBe(result.code)
  })

  test('a useLingui that also gives i18n stays, and so does every t of its component', () => {
    const before = `import { useLingui } from '@lingui/react/macro'

export function Switcher() {
  const { t, i18n } = useLingui()
  return <button onClick={() => i18n.activate('fr')}>{t\`French\`}</button>
}
`
    expect(migrate(before)).toBe(`import { useLingui } from '@lingui/react/macro'

export function Switcher() {
  // TODO(tms): useLingui stays: it also gives i18n, which has no counterpart in unplugin-tms; rewrite its uses by hand (docs/migrating.md)
  const { t, i18n } = useLingui()
  return <button onClick={() => i18n.activate('fr')}>{t\`French\`}</button>
}
`)
  })

  test("a msg whose file hands descriptors to Lingui's i18n._ stays, so i18n._ never gets one of ours", () => {
    expect(
      migrate(`import { msg } from '@lingui/core/macro'

const languages = { en: msg\`English\` }
export const title = (i18n) => i18n._(languages.en)
`),
    ).toBe(`import { msg } from '@lingui/core/macro'

// TODO(tms): this file hands descriptors to Lingui's i18n._(...), which cannot read an unplugin-tms descriptor; convert those calls (descriptor() where it is rendered) and this msg together by hand
const languages = { en: msg\`English\` }
export const title = (i18n) => i18n._(languages.en)
`)
  })
})
