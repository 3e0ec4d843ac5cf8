import { describe, expect, test } from 'vitest'
import { migrateSource } from '../../src/core/migrate/index'

/** react-intl's components and calls, each converted with exact before/after text; refusals with their TODO. */

function migrate(code: string, file = 'src/App.jsx'): string {
  const once = migrateSource(file, code, { from: 'formatjs' })
  expect(migrateSource(file, once.code, { from: 'formatjs' }).code, 'a second run changes nothing').toBe(
    once.code,
  )
  return once.code
}

describe('formatjs', () => {
  test('<FormattedMessage>: defaultMessage, description and values (rich-text functions kept) into <T msg>', () => {
    expect(
      migrate(`import { FormattedMessage } from 'react-intl'

export const Terms = ({ name }) => (
  <FormattedMessage
    id="terms"
    defaultMessage="Hello {name}, read the <link>terms</link>"
    description="Footer"
    values={{ name, link: (chunks) => <a href="/terms">{chunks}</a> }}
  />
)
`),
    ).toBe(
      `import { msg, T } from 'unplugin-tms/react'

export const Terms = ({ name }) => (
  <T msg={msg('Hello {name}, read the <link>terms</link>', undefined, { instruction: 'Footer' })} values={{ name, link: (chunks) => <a href="/terms">{chunks}</a> }} />
)
`.replace(
        "import { msg, T } from 'unplugin-tms/react'",
        "import { T } from 'unplugin-tms/react'\nimport { msg } from 'unplugin-tms/runtime'",
      ),
    )
  })

  test('defineMessages and defineMessage into msg descriptors; formatMessage of useIntl into t or the descriptor called', () => {
    expect(
      migrate(`import { defineMessage, defineMessages, useIntl } from 'react-intl'

const messages = defineMessages({
  title: { id: 'app.title', defaultMessage: 'Shop', description: 'Page title' },
  greet: { id: 'app.greet', defaultMessage: 'Hello {name}' },
})
const bye = defineMessage({ defaultMessage: 'Bye' })

export function Title({ name, count }) {
  const intl = useIntl()
  return (
    <h1 title={intl.formatMessage(messages.title)}>
      {intl.formatMessage(messages.greet, { name })}
      {intl.formatMessage({ defaultMessage: '{count, plural, one {# item} other {# items}}' }, { count })}
      {intl.formatMessage(bye)}
    </h1>
  )
}
`),
    ).toBe(`import { useLocale } from 'unplugin-tms/react'
import { msg, t } from 'unplugin-tms/runtime'

const messages = {
  title: msg('Shop', undefined, { instruction: 'Page title' }),
  greet: msg('Hello {name}'),
}
const bye = msg('Bye')

export function Title({ name, count }) {
  useLocale()
  return (
    <h1 title={messages.title()}>
      {messages.greet({ name })}
      {t('{count, plural, one {# item} other {# items}}', { count })}
      {bye()}
    </h1>
  )
}
`)
  })

  test('<FormattedNumber> and <FormattedDate> with an ICU form; the provider listed', () => {
    const result = migrateSource(
      'src/Price.jsx',
      `import { FormattedDate, FormattedNumber, IntlProvider } from 'react-intl'

export const Price = ({ price, share, day }) => (
  <IntlProvider locale="en">
    <FormattedNumber value={price} style="currency" currency="EUR" />
    <FormattedNumber value={share} style="percent" />
    <FormattedDate value={day} />
    <FormattedDate value={day} dateStyle="long" />
  </IntlProvider>
)
`,
      { from: 'formatjs' },
    )
    expect(result.code).toBe(`import { T } from 'unplugin-tms/react'
import { msg } from 'unplugin-tms/runtime'
import { IntlProvider } from 'react-intl'

export const Price = ({ price, share, day }) => (
  <IntlProvider locale="en">
    <T msg={msg('{price, number, ::currency/EUR}')} values={{ price }} />
    <T msg={msg('{share, number, percent}')} values={{ share }} />
    <T msg={msg('{day, date}')} values={{ day }} />
    <T msg={msg('{day, date, long}')} values={{ day }} />
  </IntlProvider>
)
`)
    expect(result.setup).toEqual([
      {
        file: 'src/Price.jsx',
        line: 4,
        column: 3,
        what: '<IntlProvider> from react-intl: remove it (unplugin-tms needs no provider)',
      },
    ])
  })

  test('refused: an id without defaultMessage, number options with no ICU form, intl used otherwise', () => {
    const before = `import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl'

export function Stats({ n }) {
  const intl = useIntl()
  return (
    <p title={intl.formatMessage({ defaultMessage: 'Stats' })}>
      <FormattedMessage id="stats.title" />
      <FormattedNumber value={n} maximumFractionDigits={1} />
      {intl.formatNumber(n)}
    </p>
  )
}
`
    expect(migrate(before)).toBe(`import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl'

export function Stats({ n }) {
  // TODO(tms): useIntl stays: 1 of its 2 uses could not be converted (TODOs below), so this component keeps useIntl and its other uses as they are
  const intl = useIntl()
  return (
    <p title={intl.formatMessage({ defaultMessage: 'Stats' })}>
      {/* TODO(tms): it has only an id; the text is in the catalog: give it its defaultMessage first (tms import maps the catalog) */}
      <FormattedMessage id="stats.title" />
      {/* TODO(tms): <FormattedNumber>'s maximumFractionDigits have no ICU form this migration writes; write the number's skeleton by hand */}
      <FormattedNumber value={n} maximumFractionDigits={1} />
      {/* TODO(tms): intl.formatNumber(...) is not converted; write it as an ICU argument of a message */}
      {intl.formatNumber(n)}
    </p>
  )
}
`)
  })

  test('<FormattedMessage> with a render function child: its element, the message where it showed the text', () => {
    expect(
      migrate(`import { FormattedMessage } from 'react-intl'

export const Field = ({ gender }) => (
  <div>
    <FormattedMessage id="name" defaultMessage="Name:" description="A label">
      {(txt) => <label htmlFor="name">{txt}</label>}
    </FormattedMessage>
    <select value={gender}>
      <FormattedMessage id="male" defaultMessage="Male">
        {(txt) => <option value="male">{txt} ({txt})</option>}
      </FormattedMessage>
    </select>
  </div>
)
`),
    ).toBe(`import { T } from 'unplugin-tms/react'
import { msg } from 'unplugin-tms/runtime'

export const Field = ({ gender }) => (
  <div>
    <label htmlFor="name"><T msg={msg('Name:', undefined, { instruction: 'A label' })} /></label>
    <select value={gender}>
      <option value="male"><T msg={msg('Male')} /> (<T msg={msg('Male')} />)</option>
    </select>
  </div>
)
`)
  })

  test('refused: a render function that uses its text otherwise than as {txt}', () => {
    expect(
      migrate(`import { FormattedMessage } from 'react-intl'

export const Field = () => (
  <FormattedMessage id="name" defaultMessage="Name:">
    {(txt) => <input placeholder={txt} />}
  </FormattedMessage>
)
`),
    ).toBe(`import { FormattedMessage } from 'react-intl'

// TODO(tms): <FormattedMessage>'s children are not one render function (txt) => <element> showing {txt}; rewrite them by hand
export const Field = () => (
  <FormattedMessage id="name" defaultMessage="Name:">
    {(txt) => <input placeholder={txt} />}
  </FormattedMessage>
)
`)
  })
})
