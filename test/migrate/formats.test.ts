import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { migrateProject } from '../../src/core/migrate/project'
import { formatSummary } from '../../src/core/migrate/summary'

/**
 * react-intl's named formats: `tms migrate --from formatjs` keeps `{walletValue, number, GBP}` and
 * prints the formats it read statically (in the file, or exported by a module of the app it imports) as
 * the `formats` option for the tms config; the ones it cannot read (a package's import, a spread) are
 * listed, never dropped in silence.
 */

let root: string | undefined

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

function app(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'tms-migrate-formats-'))
  for (const [file, code] of Object.entries(files)) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), code)
  }
  return root
}

/** The summary's lines from the first about named formats to the `next:` line. */
const formatsPart = (summary: string): string[] => {
  const lines = summary.split('\n')
  const start = lines.findIndex((l) => l.startsWith('named formats'))
  const end = lines.findIndex((l) => l.startsWith('next:'))
  return lines.slice(start, end === -1 ? undefined : end)
}

test('formats of <IntlProvider> (a const of the file, and a literal) are printed as the formats option', () => {
  const cwd = app({
    'src/App.jsx': `import { FormattedMessage, IntlProvider } from 'react-intl'

const formats = {
  number: { GBP: { style: 'currency', currency: 'GBP' } },
}

export const App = ({ locale, messages }) => (
  <IntlProvider
    locale={locale}
    messages={messages}
    formats={formats}
    defaultFormats={{ date: { day: { day: 'numeric', month: 'long' } } }}
  >
    <FormattedMessage defaultMessage="Wallet: {walletValue, number, GBP}" values={{ walletValue: 123.457 }} />
  </IntlProvider>
)
`,
  })
  const run = migrateProject({ from: 'formatjs', paths: [], cwd })
  expect(readFileSync(join(cwd, 'src/App.jsx'), 'utf8')).toContain(
    "<T msg={msg('Wallet: {walletValue, number, GBP}')} values={{ walletValue: 123.457 }} />",
  )
  expect(formatsPart(formatSummary(run))).toEqual([
    'named formats (src/App.jsx:11:5 (<IntlProvider formats>), src/App.jsx:12:5 (<IntlProvider defaultFormats>)): put into the tms config (unplugin-tms compiles them into the messages; this migration does not edit the config):',
    '  formats: {',
    '    "number": {',
    '      "GBP": {',
    '        "style": "currency",',
    '        "currency": "GBP"',
    '      }',
    '    },',
    '    "date": {',
    '      "day": {',
    '        "day": "numeric",',
    '        "month": "long"',
    '      }',
    '    }',
    '  }',
  ])
})

test('createIntl: formats read alone from its config; an imported object, a spread and a second reading are listed', () => {
  const cwd = app({
    'src/intl.js': `import { createIntl, createIntlCache, IntlProvider } from 'react-intl'
import { shared } from './shared'

export const intl = createIntl({ locale: navigator.language, messages: {}, formats: { number: { GBP: { style: 'currency', currency: 'GBP' } } } }, createIntlCache())
export const euro = createIntl({ locale: 'fr', formats: { number: { GBP: { style: 'currency', currency: 'EUR' } } } })
export const other = createIntl({ locale: 'de', defaultFormats: shared })
export const Provider = (props) => <IntlProvider {...props} />
`,
  })
  const run = migrateProject({ from: 'formatjs', paths: [], cwd, dryRun: true })
  expect(formatsPart(formatSummary(run))).toEqual([
    'named formats (src/intl.js:4:76 (createIntl({ formats })), src/intl.js:5:48 (createIntl({ formats }))): put into the tms config (unplugin-tms compiles them into the messages; this migration does not edit the config):',
    '  formats: {',
    '    "number": {',
    '      "GBP": {',
    '        "style": "currency",',
    '        "currency": "GBP"',
    '      }',
    '    }',
    '  }',
    '  formats.number.GBP differs at src/intl.js:4:76 (createIntl({ formats })) and src/intl.js:5:48 (createIntl({ formats })): the first is printed; pick one',
    'named formats not read (copy them into the formats option of the tms config by hand) (2):',
    '  src/intl.js:6:49 (createIntl({ defaultFormats }))  shared is imported from ./shared, which is not a file of the app this migration found',
    '  src/intl.js:7:50 (<IntlProvider {...}>)  its props are spread: formats or defaultFormats among them are not seen',
  ])
})

test("formats imported from the app's modules (a default and a named export of a const) are read; a package's import is listed", () => {
  const cwd = app({
    'src/formats/money.ts': `const moneyFormats = {
  CHF: { style: 'currency', currency: 'CHF' },
}

export default moneyFormats
`,
    'src/formats/index.js': `export const dateFormats = { short: { day: 'numeric', month: 'short' } }
`,
    'src/Root.jsx': `import { IntlProvider, createIntl } from 'react-intl'
import { dateFormats } from './formats'
import moneyFormats from './formats/money.js'
import { vendorFormats } from '@acme/intl-formats'

const formats = { number: moneyFormats, date: dateFormats }

export const intl = createIntl({ locale: 'de', defaultFormats: vendorFormats })
export const Root = ({ children }) => (
  <IntlProvider locale="de" formats={formats}>
    {children}
  </IntlProvider>
)
`,
  })
  const run = migrateProject({ from: 'formatjs', paths: [], cwd, dryRun: true })
  expect(formatsPart(formatSummary(run))).toEqual([
    'named formats (src/Root.jsx:10:29 (<IntlProvider formats>)): put into the tms config (unplugin-tms compiles them into the messages; this migration does not edit the config):',
    '  formats: {',
    '    "number": {',
    '      "CHF": {',
    '        "style": "currency",',
    '        "currency": "CHF"',
    '      }',
    '    },',
    '    "date": {',
    '      "short": {',
    '        "day": "numeric",',
    '        "month": "short"',
    '      }',
    '    }',
    '  }',
    'named formats not read (copy them into the formats option of the tms config by hand) (1):',
    '  src/Root.jsx:8:48 (createIntl({ defaultFormats }))  vendorFormats is imported from @acme/intl-formats, a package or an alias this migration does not resolve',
  ])
})
