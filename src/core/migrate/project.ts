import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { globSync } from 'tinyglobby'
import { findCatalogFiles, readSourceTexts } from './catalog'
import { migrateSource } from './index'
import { type FileMigration, LIBRARIES, type Library, MigrateInputError, type MigrateOptions } from './types'

/** `tms migrate` over files on disk: the paths given (or `src/`), each file migrated and written back. */

export interface MigrateRunOptions {
  from: string | undefined
  paths: string[]
  cwd: string
  dryRun?: boolean
  /** i18next: the source locale's catalog file or folder. */
  catalog?: string
  /** i18next: the source locale whose catalog gives the texts. @default 'en' */
  sourceLocale?: string
}

export interface MigrateRun {
  from: Library
  /** Files read (the library's candidates and the rest). */
  read: number
  /** Every file with a change, a TODO or a setup note, paths relative to cwd. */
  files: FileMigration[]
  dryRun: boolean
  /** i18next: the catalog files that gave the texts. */
  catalogFiles: string[]
}

const SOURCES = '**/*.{js,jsx,ts,tsx,mjs,cjs,mts,cts,vue,svelte}'
const IGNORED = ['**/node_modules/**', '**/dist/**', '**/build/**', '**/.git/**', '**/*.d.ts']

export function migrateProject(options: MigrateRunOptions): MigrateRun {
  const from = options.from
  if (from === undefined) throw new MigrateInputError(`--from is required: one of ${LIBRARIES.join(', ')}`)
  if (!(LIBRARIES as readonly string[]).includes(from))
    throw new MigrateInputError(
      `--from ${from} is not a library tms migrate knows: use one of ${LIBRARIES.join(', ')}`,
    )
  const library = from as Library
  const { cwd } = options
  const files = sourceFiles(
    cwd,
    options.paths.length > 0 ? options.paths : existsSync(join(cwd, 'src')) ? ['src'] : ['.'],
  )
  const migrate: MigrateOptions = {
    from: library,
    readModule: (from, specifier) => readModule(cwd, from, specifier),
  }
  let catalogFiles: string[] = []
  if (library === 'i18next') {
    const locale = options.sourceLocale ?? 'en'
    const found = findCatalogFiles(cwd, options.catalog, locale)
    catalogFiles = found.map((f) => relative(cwd, f.file))
    migrate.sourceTexts = readSourceTexts(cwd, found, locale)
  } else if (options.catalog !== undefined)
    throw new MigrateInputError(`--catalog is for --from i18next (${library}'s messages hold their text)`)
  const out: FileMigration[] = []
  for (const file of files) {
    const rel = relative(cwd, file).split('\\').join('/')
    const result = migrateSource(rel, readFileSync(file, 'utf8'), migrate, cwd)
    if (!result.changed && !result.left.length && !result.setup.length && !result.formats.length) continue
    if (result.changed && !options.dryRun) writeFileSync(file, result.code)
    out.push(result)
  }
  return { from: library, read: files.length, files: out, dryRun: options.dryRun === true, catalogFiles }
}

/** What a relative specifier can name: the file as written, with a source extension, or a folder's index. */
const CANDIDATES = [
  '',
  '.ts',
  '.tsx',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
  '/index.ts',
  '/index.tsx',
  '/index.js',
  '/index.jsx',
]

/** The module `specifier` names from the file `from` (relative to cwd), as a bundler resolves it. */
function readModule(
  cwd: string,
  from: string,
  specifier: string,
): { file: string; code: string } | undefined {
  const base = resolve(cwd, dirname(from), specifier)
  // TypeScript's ESM spelling: `./formats.js` names `formats.ts`.
  const stems = /\.[cm]?js$/.test(base) ? [base, base.replace(/\.([cm]?)js$/, '.$1ts')] : [base]
  for (const stem of stems)
    for (const ending of CANDIDATES) {
      const file = stem + ending
      if (existsSync(file) && statSync(file).isFile())
        return { file: relative(cwd, file).split('\\').join('/'), code: readFileSync(file, 'utf8') }
    }
  return undefined
}

function sourceFiles(cwd: string, paths: string[]): string[] {
  const out = new Set<string>()
  for (const p of paths) {
    const abs = resolve(cwd, p)
    if (!existsSync(abs))
      throw new MigrateInputError(
        `${p}: no such file or folder (tms migrate [paths...] takes the app's source files or folders)`,
      )
    if (statSync(abs).isDirectory()) {
      for (const f of globSync(SOURCES, { cwd: abs, ignore: IGNORED, absolute: true })) out.add(f)
    } else out.add(abs)
  }
  return [...out].sort()
}
