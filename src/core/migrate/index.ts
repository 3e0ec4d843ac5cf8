import { type ParseUnit, parseUnits } from '../extract/sources'
import { parseUnit } from './app-module'
import { FileState, type Framework, type UnitKind } from './file-state'
import { migrateFormatjs } from './formatjs'
import { migrateI18next } from './i18next'
import type { ImportResult } from './imports'
import { migrateLingui } from './lingui'
import { markupUnits } from './markup'
import type { FileMigration, Library, MigrateOptions } from './types'

/**
 * The migrate folder: this file parses each program of a file with oxc-parser (a .vue or .svelte
 * file's scripts through `../extract/sources.ts`, its template or markup expressions through
 * `markup.ts` with the project's own compilers) and hands them, in one `FileState` (`file-state.ts`:
 * edits made at the end with magic-string once our names are known, TODO comments, conversions, setup
 * notes), to one library's module: `lingui.ts` (+ `lingui-jsx.ts`), `formatjs.ts` (+ `formatjs-jsx.ts`,
 * named formats in `formatjs-formats.ts`),
 * `i18next.ts` (+ `i18next-trans.ts` and its numbered tags `i18next-trans-tags.ts`, `withTranslation` in
 * `i18next-hoc.ts`; keys' texts through `catalog.ts`, which reuses the import's
 * i18next reader and conversion). Shared: `message.ts` (ICU texts, values, `t` calls), `scopes.ts` (a
 * hook goes only when all its uses converted), `imports.ts` (old imports removed when every reference
 * went, ours added or aliased), `app-module.ts` (a name imported from a module of the app, and what
 * that module exports), `walk.ts`. Files on disk: `project.ts`; the summary: `summary.ts`.
 */
/**
 * `tms migrate`'s core: one file's source in, the same file rewritten to unplugin-tms out (edits
 * with magic-string, so the rest of the file keeps its formatting), with what was converted, what
 * was left with a `TODO(tms)` comment and why, and the old library's setup for the user to remove.
 * Pure: no file system; `src/core/migrate/project.ts` reads and writes the files.
 */

export type {
  FileMigration,
  FormatsFound,
  LeftOver,
  Library,
  MigrateOptions,
  SetupNote,
  SourceTexts,
} from './types'
export { LIBRARIES, MigrateInputError } from './types'

/** A cheap test before parsing: files that never name the library are left alone. */
const MENTIONS: Record<Library, RegExp> = {
  lingui: /@lingui\//,
  formatjs: /\breact-intl\b|@formatjs\//,
  i18next: /i18next|useTranslation|\$t\(/,
}

const MIGRATE: Record<Library, (state: FileState) => ImportResult> = {
  lingui: migrateLingui,
  formatjs: migrateFormatjs,
  i18next: migrateI18next,
}

function frameworkOf(file: string): Framework {
  if (/\.vue$/i.test(file)) return 'vue'
  if (/\.svelte$/i.test(file)) return 'svelte'
  return 'react'
}

/** Migrates one file's text. `cwd` is where Vue's and Svelte's compilers are loaded from. */
export function migrateSource(
  file: string,
  code: string,
  options: MigrateOptions,
  cwd: string = process.cwd(),
): FileMigration {
  const state = new FileState(file, code, options, frameworkOf(file))
  const unchanged: FileMigration = {
    file,
    code,
    changed: false,
    conversions: {},
    left: [],
    setup: [],
    formats: [],
  }
  if (!MENTIONS[options.from].test(code)) return unchanged
  const scripts = /\.(vue|svelte)$/i.test(file) ? parseUnits(file, code) : parseUnits(file, code)
  const pieces: [ParseUnit, UnitKind][] = scripts.map((u) => [u, 'script'])
  if (state.framework !== 'react') {
    const markup = markupUnits(file, code, state.framework, cwd)
    if (typeof markup === 'string') {
      state.left.push({ file, line: 1, column: 1, reason: markup })
    } else for (const u of markup) pieces.push([u, 'markup'])
  }
  for (const [unit, kind] of pieces) {
    const parsed = parseUnit(unit, kind)
    if (typeof parsed === 'string') {
      return {
        ...unchanged,
        left: [
          { file, line: 1, column: 1, reason: `it does not parse (${parsed}); nothing in it was changed` },
        ],
      }
    }
    state.units.push(parsed)
  }
  const { names, edits } = MIGRATE[options.from](state)
  return state.finish(names, edits)
}
