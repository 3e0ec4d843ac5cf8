import { buildCatalog } from '../core/catalog/index'
import type { CompiledMessage } from '../core/icu/compile'
import { jsString } from '../core/js-string'
import type { Build } from './build'
import {
  type CatalogMap,
  catalogChanges,
  catalogLiteral,
  type LocaleModuleIds,
  localeModuleIds,
  RUNTIME_ID,
} from './virtual'

/**
 * The catalogs of a webpack or rspack watch (their dev servers, `--watch`): each locale's catalog
 * module imports a base module, the locale's catalog as the build's first full pass made it, and holds
 * only what differs from it. A `tms pull` or an edit then changes the catalog module alone, so its hot
 * update carries the changed translations, not the whole catalog again: webpack-dev-middleware keeps
 * every hot-update file it served in memory until the server stops (a lagging page may still ask for
 * it), and a catalog of 20,000 messages is about a megabyte per update.
 *
 * A base is made once per build start (a new start, after the manifest changed, makes new ones), from
 * the first pass that knows the compilation's modules (webpack's finishMake); before that its module
 * is an empty catalog, which finishMake rebuilds.
 *
 * An edit changes which ids the modules use, not what an id's entry holds: within one build an id
 * stands for one message, and its entry changes only with the locale's translations (a recheck
 * replaces them). So while the translations are the base's, what differs is the entries of the ids
 * used since and the ids no longer used, found from the two id sets; each rebuild of a watch would
 * otherwise make the locale's whole catalog, and parse it, to compare it with the base (about 0.4 s
 * of server CPU per edit at 20,000 messages and 3 locales).
 */

/** A locale's base: its literal, the ids it was made of and the translations it was made from. */
interface Base {
  literal: string
  /** The catalog parsed from the literal, once a change needs it. */
  catalog?: CatalogMap
  used: ReadonlySet<string>
  /** The build's `translationsRevision` of the locale when the base was made. */
  translations: number
}

const baseIds = localeModuleIds('base')
export const catalogBaseModuleId: LocaleModuleIds['id'] = baseIds.id
/** The locale of a base module id, or undefined for any other id. */
export const catalogBaseModuleLocale: LocaleModuleIds['locale'] = baseIds.locale

/** One build's bases, made once each. */
export class HotCatalogs {
  private readonly build: Build
  /** Locale -> its base. */
  private readonly bases = new Map<string, Base>()
  /** The locales whose base module was last loaded with their base (not the empty first one). */
  private readonly served = new Set<string>()

  constructor(build: Build) {
    this.build = build
  }

  /** Whether the base module of `locale` holds this build's base (else its module is built again). */
  holds(locale: string): boolean {
    return this.served.has(locale)
  }

  /**
   * The base module: the catalog of the modules `files` at the first call that knows them (files
   * undefined: the compilation's modules are not known yet).
   */
  baseModule(locale: string, files: readonly string[] | undefined): string {
    const base = this.bases.get(locale) ?? (files && this.baseOf(locale, files))
    if (base) this.served.add(locale)
    else this.served.delete(locale)
    return `export default ${base?.literal ?? '{}'};\n`
  }

  /**
   * The catalog module: the base with what differs in the catalog of `files`. It accepts its own hot
   * update and hands the new catalog to the runtime, so a message added in a module that accepts its
   * update (React Fast Refresh) shows at once; otherwise the update would reach the entry, which reloads
   * the page. The base is copied, never changed: an update's module runs again over the same base.
   */
  catalogModule(locale: string, files: readonly string[] | undefined): string {
    const changes = files && this.changesOf(locale, files)
    let catalog = 'base'
    if (changes) {
      const changed = catalogLiteral(new Map(Object.entries(changes.changed)))
      catalog = `Object.assign({}, base, ${changed})`
      if (changes.removed.length > 0) catalog = `__tms_drop(${catalog}, ${JSON.stringify(changes.removed)})`
    }
    return (
      `import { _u } from ${jsString(RUNTIME_ID)};\n` +
      `import base from ${jsString(catalogBaseModuleId(locale))};\n` +
      (changes?.removed.length
        ? 'function __tms_drop(catalog, ids) { for (const id of ids) delete catalog[id]; return catalog; }\n'
        : '') +
      `const catalog = ${catalog};\n` +
      'export default catalog;\n' +
      'if (import.meta.webpackHot) {\n' +
      '  import.meta.webpackHot.accept();\n' +
      // `data` is set only when the module runs again for an update, not when the page first loads it.
      `  if (import.meta.webpackHot.data) _u(${jsString(locale)}, catalog);\n` +
      '}\n'
    )
  }

  private baseOf(locale: string, files: readonly string[]): Base {
    let base = this.bases.get(locale)
    if (!base) {
      base = {
        literal: this.build.catalogLiteralFor(locale, files),
        used: new Set(this.build.usedIds(files)),
        translations: this.build.translationsRevision(locale),
      }
      this.bases.set(locale, base)
    }
    return base
  }

  private changesOf(
    locale: string,
    files: readonly string[],
  ): { changed: Record<string, CompiledMessage>; removed: string[] } | undefined {
    const base = this.baseOf(locale, files)
    if (this.build.translationsRevision(locale) !== base.translations) {
      const literal = this.build.catalogLiteralFor(locale, files)
      if (literal === base.literal) return undefined
      base.catalog ??= parseCatalog(base.literal)
      return catalogChanges(base.catalog, parseCatalog(literal))
    }
    const used = this.build.usedIds(files)
    const added: string[] = []
    for (const id of used) if (!base.used.has(id)) added.push(id)
    const gone: string[] = []
    for (const id of base.used) if (!used.has(id)) gone.push(id)
    if (added.length === 0 && gone.length === 0) return undefined
    base.catalog ??= parseCatalog(base.literal)
    const removed = gone.filter((id) => base.catalog!.has(id))
    const changed = Object.fromEntries(buildCatalog(this.build.catalogInput(locale), added))
    return Object.keys(changed).length > 0 || removed.length > 0 ? { changed, removed } : undefined
  }
}

/** A catalog literal is JSON (see `catalogLiteral`). */
function parseCatalog(literal: string): CatalogMap {
  return new Map(Object.entries(JSON.parse(literal) as Record<string, CompiledMessage>))
}

const made = new WeakMap<Build, HotCatalogs>()

/** The bases of `build`, made when first asked. */
export function hotCatalogsOf(build: Build): HotCatalogs {
  let hot = made.get(build)
  if (!hot) {
    hot = new HotCatalogs(build)
    made.set(build, hot)
  }
  return hot
}
