import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import type { Library } from '../../src/core/migrate/types'
import { tms } from '../helpers/cli'
import { renderPages, rollupReactApp } from '../helpers/react-app'
import { type Project, setupProject } from '../plugin/helpers'

/**
 * One small app per library, written against Lingui's macros, react-intl and react-i18next as their
 * docs show, migrated by `tms migrate` (the built CLI), then built by rollup with the plugin against
 * the emulator (strings pushed, French published) and rendered with react-dom/server in the source
 * locale and in French: the text of every construct, identical to what the original showed.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const FIXTURES = join(REPO, 'test/fixtures/migrate')
const projects: Project[] = []
const copies: string[] = []

afterAll(async () => {
  for (const p of projects) await p.close()
  for (const c of copies) rmSync(c, { recursive: true, force: true })
})

const SOURCE_PAGE: Record<Library, string> = {
  lingui:
    '<main><h1>Welcome to the shop</h1><p>Hello <b>Ada</b>, see <a href="/docs">the docs</a></p><p>2 books</p><p>You have 2 files</p><ul><li>Red</li><li>Open</li></ul></main>',
  formatjs:
    '<main><h1>Welcome to the shop</h1><p>Hello <b>Ada</b>, see <a href="/docs">the docs</a></p><p>You have 2 files</p><p>€12.50</p></main>',
  i18next:
    '<main><h1>Welcome to the shop</h1><p>Hello <strong>Ada</strong>, see <a href="/docs">the docs</a></p><p>You have 2 files</p><p>A girlfriend</p><p>Welcome back, <b>Ada</b>!</p><small>Prices include VAT</small></main>',
}

const FRENCH: Record<Library, Record<string, string>> = {
  lingui: {
    'Welcome to the shop': 'Bienvenue dans la boutique',
    'Hello <b>{name}</b>, see <a>the docs</a>': 'Bonjour <b>{name}</b>, voyez <a>la documentation</a>',
    '{count, plural, one {# book} other {# books}}':
      '{count, plural, one {# livre} many {# livres} other {# livres}}',
    'You have {count, plural, one {# file} other {# files}}':
      'Vous avez {count, plural, one {# fichier} many {# fichiers} other {# fichiers}}',
    Red: 'Rouge',
    Open: 'Ouvrir',
  },
  formatjs: {
    'Welcome to the shop': 'Bienvenue dans la boutique',
    'Hello <b>{name}</b>, see <link>the docs</link>':
      'Bonjour <b>{name}</b>, voyez <link>la documentation</link>',
    'You have {count, plural, one {# file} other {# files}}':
      'Vous avez {count, plural, one {# fichier} many {# fichiers} other {# fichiers}}',
    '{price, number, ::currency/EUR}': '{price, number, ::currency/EUR}',
  },
  i18next: {
    'Welcome to the shop': 'Bienvenue dans la boutique',
    'Hello <strong>{name}</strong>, see <docs>the docs</docs>':
      'Bonjour <strong>{name}</strong>, voyez <docs>la documentation</docs>',
    '{count, plural, =0 {You have no files} one {You have {count} file} other {You have {count} files}}':
      "{count, plural, =0 {Vous n'avez aucun fichier} one {Vous avez {count} fichier} many {Vous avez {count} fichiers} other {Vous avez {count} fichiers}}",
    '{context, select, female {A girlfriend} other {A friend}}':
      '{context, select, female {Une amie} other {Un ami}}',
    'Welcome back, <b>{name}</b>!': 'Bon retour, <b>{name}</b> !',
    'Prices include VAT': 'Prix TTC',
  },
}

const FRENCH_PAGE: Record<Library, string> = {
  lingui:
    '<main><h1>Bienvenue dans la boutique</h1><p>Bonjour <b>Ada</b>, voyez <a href="/docs">la documentation</a></p><p>2 livres</p><p>Vous avez 2 fichiers</p><ul><li>Rouge</li><li>Ouvrir</li></ul></main>',
  formatjs:
    '<main><h1>Bienvenue dans la boutique</h1><p>Bonjour <b>Ada</b>, voyez <a href="/docs">la documentation</a></p><p>Vous avez 2 fichiers</p><p>12,50\u00a0€</p></main>',
  i18next:
    '<main><h1>Bienvenue dans la boutique</h1><p>Bonjour <strong>Ada</strong>, voyez <a href="/docs">la documentation</a></p><p>Vous avez 2 fichiers</p><p>Une amie</p><p>Bon retour, <b>Ada</b> !</p><small>Prix TTC</small></main>',
}

/** rollup with the plugin, the binding from the built package, the JSX compiled by esbuild. */
function build(project: Project): Promise<string> {
  return rollupReactApp(
    join(project.root, 'src/main.jsx'),
    join(project.root, 'dist'),
    project.options({ pseudo: false }),
  )
}

/** The fixture copied under the repo (so React and the package resolve as in an installed app) and migrated. */
async function migrated(library: Library): Promise<{ dir: string; stdout: string }> {
  mkdirSync(join(REPO, '.tmp'), { recursive: true })
  const dir = mkdtempSync(join(REPO, '.tmp', `migrate-${library}-`))
  copies.push(dir)
  cpSync(join(FIXTURES, library), dir, { recursive: true })
  const result = await tms(dir, ['migrate', '--from', library])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return { dir, stdout: result.stdout }
}

test.each(['lingui', 'formatjs', 'i18next'] as const)(
  '%s: the app migrated by tms migrate builds and renders the same text, and French from the service',
  async (library) => {
    const { dir, stdout } = await migrated(library)
    expect(stdout).toBe(SUMMARY[library])
    const app = readFileSync(join(dir, 'src/App.jsx'), 'utf8')
    expect(app).not.toMatch(/lingui|react-intl|i18next|TODO/)
    const project = await setupProject(FRENCH[library], dir, join(REPO, '.tmp'))
    projects.push(project)
    expect(await renderPages(await build(project))).toEqual({
      source: SOURCE_PAGE[library],
      fr: FRENCH_PAGE[library],
    })
  },
  240_000,
)

const SUMMARY: Record<Library, string> = {
  lingui: `tms migrate --from lingui: 1 of 3 files changed
  src/App.jsx
converted:
  <Plural>             1
  <Trans>              1
  explicit id dropped  1
  msg macro            2
  t macro              3
  useLingui            1
Lingui's setup to remove by hand once nothing uses it (2):
  src/i18n.js:6:3  i18n.load(...) from @lingui/core: replace with setLocale(locale) from unplugin-tms/runtime
  src/i18n.js:7:3  i18n.activate(...) from @lingui/core: replace with setLocale(locale) from unplugin-tms/runtime
next: tms import brings the catalogs in; build, and compare each view (docs/migrating.md, "What to check afterwards")
`,
  formatjs: `tms migrate --from formatjs: 1 of 3 files changed
  src/App.jsx
converted:
  <FormattedMessage>   1
  <FormattedNumber>    1
  defineMessages       1
  explicit id dropped  3
  formatMessage        2
  useIntl              1
react-intl's setup to remove by hand once nothing uses it (1):
  src/Root.jsx:6:3  <IntlProvider> from react-intl: remove it (unplugin-tms needs no provider)
next: tms import brings the catalogs in; build, and compare each view (docs/migrating.md, "What to check afterwards")
`,
  i18next: `tms migrate --from i18next: 1 of 3 files changed
texts of i18next's keys from public/locales/en/translation.json
  src/App.jsx
converted:
  <Trans i18nKey>  2
  t(key)           4
  useTranslation   1
  withTranslation  1
i18next's setup to remove by hand once nothing uses it (1):
  src/i18n.js:5:1  i18next.use(...) from i18next: remove the i18next setup (locales come from tms.config; switch with setLocale)
next: tms import brings the catalogs in; build, and compare each view (docs/migrating.md, "What to check afterwards")
`,
}
