import { buildCatalog } from '../core/catalog/index'
import type { CompiledMessage } from '../core/icu/compile'
import { jsString } from '../core/js-string'
import type { Build } from './build'
import { catalogPullsHot } from './pull-page-code'
import {
  type CatalogChanges,
  type CatalogMap,
  catalogChanges,
  catalogLiteral,
  jsonExpression,
  type LocaleModuleIds,
  literalDigest,
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
 * replaces them). So while the translations stay as they are, what an edit adds is the entries of the
 * ids used since, found from the two id sets; each rebuild of a watch would otherwise make the
 * locale's whole catalog, and parse it, to compare it with the base (about 0.4 s of server CPU per
 * edit at 20,000 messages and 3 locales). A recheck (a `tms pull`) makes the whole catalog once and
 * compares it with the base; the edits after it go on from there. The entries of ids no module uses
 * any more stay: no page asks for them, and an edit that brings no translated message in (a new text,
 * the usual edit) then leaves every catalog module as it was, so webpack neither rebuilds nor emits
 * the locales' chunks (at 20,000 messages and 3 locales, 3.9 MB more to emit and about 0.5 s more
 * from the edit to the page shown, each edit).
 *
 * A page (a web target) fetches its base as a JSON file instead ({@link HotCatalogs.fetchedBases}):
 * a base module of a megabyte lived in webpack's memory several times over (its source, its parse,
 * its eval-wrapped code, the chunk, the asset, the served copy); as a file it is the literal, one
 * source and the served copy. At 20,000 messages and 3 locales the dev server's heap is 14-17 MiB
 * smaller. A server compiler (node has no page to fetch from) imports the base module as before.
 */

/** A locale's base: its literal, the ids it was made of and the translations it was made from. */
interface Base {
  literal: string
  /** The catalog parsed from the literal, once a change needs it. */
  catalog?: CatalogMap
  used: ReadonlySet<string>
  /** The build's `translationsRevision` of the locale when the base was made. */
  translations: number
  /** The file a page fetches the base from, named after its content, once a page's module asks. */
  file?: string
}

/**
 * What a locale's catalog module holds besides its base, for one revision of the locale's
 * translations: base, `changed` and `removed` give the entry of every id in `covered`, the ids used
 * since the base was made (or since the translations changed).
 */
interface Held {
  /** The build's `translationsRevision` of the locale these changes were made for. */
  translations: number
  covered: Set<string>
  changed: Record<string, CompiledMessage>
  removed: string[]
  /**
   * The modules `covered` was last checked against (the set {@link HotCatalogs} keeps for their list),
   * and the usage's transforms by then.
   */
  checked?: { files: ReadonlySet<string>; transforms: number }
}

/** What a page's console says after the error of a catalog update whose base did not load. */
const UPDATE_FAILED =
  ' (a hot update of the catalog: the page keeps the catalog it has, and loads it again at its next switch to the locale or a reload)'

const baseIds = localeModuleIds('base')
export const catalogBaseModuleId: LocaleModuleIds['id'] = baseIds.id
/** The locale of a base module id, or undefined for any other id. */
export const catalogBaseModuleLocale: LocaleModuleIds['locale'] = baseIds.locale

/** One build's bases, made once each. */
export class HotCatalogs {
  private readonly build: Build
  /** Locale -> its base. */
  private readonly bases = new Map<string, Base>()
  /** Locale -> what its catalog module holds besides its base. */
  private readonly held = new Map<string, Held>()
  /** The locales whose base module was last loaded with their base (not the empty first one). */
  private readonly served = new Set<string>()
  /**
   * The last list of the compilation's modules the catalogs were asked for, and its files as a set:
   * kept while the modules stay the same, so that each locale's check compares one set object.
   */
  private modules: { list: readonly string[]; files: ReadonlySet<string> } | undefined

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
    return `export default ${jsonExpression(base?.literal ?? '{}')};\n`
  }

  /**
   * The catalog module: the base with what differs in the catalog of `files`. It accepts its own hot
   * update and hands the new catalog to the runtime, so a message added in a module that accepts its
   * update (React Fast Refresh) shows at once; otherwise the update would reach the entry, which reloads
   * the page. The base is copied, never changed: an update's module runs again over the same base.
   * `fetch`: the module fetches its base as a file (a page's), else it imports the base module.
   * `pulls`: the page listens to the dev server's channel of pulled translations (pull-channel.ts).
   */
  catalogModule(
    locale: string,
    files: readonly string[] | undefined,
    how: { fetch: boolean; pulls: boolean } = { fetch: false, pulls: false },
  ): string {
    const changes = files && this.changesOf(locale, files)
    let catalog = 'base'
    if (changes) {
      const changed = catalogLiteral(new Map(Object.entries(changes.changed)))
      catalog = `Object.assign({}, base, ${changed})`
      if (changes.removed.length > 0) catalog = `__tms_drop(${catalog}, ${JSON.stringify(changes.removed)})`
    }
    const drop =
      changes && changes.removed.length > 0
        ? 'function __tms_drop(catalog, ids) { for (const id of ids) delete catalog[id]; return catalog; }\n'
        : ''
    const update = `_u(${jsString(locale)}, catalog)`
    if (!how.fetch) {
      return (
        `import { _u } from ${jsString(RUNTIME_ID)};\n` +
        `import base from ${jsString(catalogBaseModuleId(locale))};\n` +
        drop +
        `const catalog = ${catalog};\n` +
        'export default catalog;\n' +
        'if (import.meta.webpackHot) {\n' +
        '  import.meta.webpackHot.accept();\n' +
        // `data` is set only when the module runs again for an update, not when the page first loads it.
        `  if (import.meta.webpackHot.data) ${update};\n` +
        '}\n'
      )
    }
    const file = files && this.baseFile(locale, files)
    // With the dev server's channel of pulled translations, the module takes them in (pull-page-code.ts).
    const hotPart = how.pulls
      ? catalogPullsHot(locale, changes ? [...Object.keys(changes.changed), ...changes.removed] : [])
      : '  hot.dispose((data) => { data.url = url; data.fetched = fetched; });\n' +
        `  if (hot.data) make().then((catalog) => ${update}, failed);\n`
    // The runtime's loader takes the module's default export through a `then`, so a thenable of the
    // catalog serves as the catalog. A fetch that failed (the dev server restarting, a network hiccup)
    // is forgotten, so the next switch to the locale fetches again, as a chunk that failed to load
    // does. An update's module gets the fetched base from the one before it (`data`), unless the base
    // file changed or was never fetched; its own fetch failing is said in the console (`failed`), where
    // nothing waits on it, instead of surfacing as an unhandled rejection.
    return (
      `import { ${how.pulls ? '_p, _u' : '_u'} } from ${jsString(RUNTIME_ID)};\n` +
      drop +
      'const hot = import.meta.webpackHot;\n' +
      (file
        ? `const url = __webpack_public_path__ + ${jsString(file)};\n` +
          'let fetched = hot && hot.data && hot.data.url === url ? hot.data.fetched : undefined;\n' +
          'const fetchBase = () => fetched || (fetched = fetch(url).then((response) => {\n' +
          `  if (!response.ok) throw new Error(${jsString(`[unplugin-tms] could not load the catalog of ${locale} from `)} + url + ": HTTP " + response.status);\n` +
          '  return response.json();\n' +
          '}).catch((error) => { fetched = undefined; throw error; }));\n'
        : 'const url = "";\nlet fetched = Promise.resolve({});\nconst fetchBase = () => fetched;\n') +
      'let made;\n' +
      `const make = () => made || (made = fetchBase().then((base) => ${catalog}, (error) => { made = undefined; throw error; }));\n` +
      'export default { then: (resolve, reject) => make().then(resolve, reject) };\n' +
      'if (hot) {\n' +
      '  hot.accept();\n' +
      `  const failed = (error) => console.warn(error.message + ${jsString(UPDATE_FAILED)});\n` +
      hotPart +
      '}\n'
    )
  }

  /**
   * The base files the pages of this build fetch: each locale's, named after its content, for the
   * compilation to emit as an asset.
   */
  fetchedBases(): { fileName: string; literal: string }[] {
    const files: { fileName: string; literal: string }[] = []
    for (const base of this.bases.values())
      if (base.file) files.push({ fileName: base.file, literal: base.literal })
    return files
  }

  private baseFile(locale: string, files: readonly string[]): string {
    const base = this.baseOf(locale, files)
    base.file ??= `tms-base-${locale}.${literalDigest(base.literal)}.json`
    return base.file
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

  /**
   * What the catalog module of `locale` holds besides its base, for the modules `files`: the held
   * changes of the locale's translations as they are, with the entries of the ids used since.
   */
  private changesOf(
    locale: string,
    files: readonly string[],
  ): { changed: Record<string, CompiledMessage>; removed: string[] } | undefined {
    const base = this.baseOf(locale, files)
    const revision = this.build.translationsRevision(locale)
    let held = this.held.get(locale)
    if (held?.translations !== revision) {
      const atBase = (): Held => ({
        translations: base.translations,
        covered: new Set(base.used),
        changed: {},
        removed: [],
      })
      if (revision === base.translations) held = atBase()
      else {
        const from = held ?? atBase()
        const changes = this.build.catalogChangesSince(locale, from.translations, (id) =>
          from.covered.has(id),
        )
        held = changes
          ? patched(from, changes, revision)
          : this.recheckedChanges(locale, files, base, revision)
      }
      this.held.set(locale, held)
    }
    const added = this.addedIds(held, files)
    if (added.length > 0) {
      for (const id of added) held.covered.add(id)
      const entries = buildCatalog(this.build.catalogInput(locale), added)
      if (entries.size > 0) {
        for (const [id, entry] of entries) held.changed[id] = entry
        held.removed = held.removed.filter((id) => !entries.has(id))
      }
    }
    return Object.keys(held.changed).length > 0 || held.removed.length > 0 ? held : undefined
  }

  /**
   * The ids the modules `files` use that `held` does not cover yet. Checked before against the same
   * list of modules, only a module transformed since can bring one: an edit's rebuild looks at the
   * ids of the module it changed, not at every id of the app (6 ms per rebuild at 20,000 ids).
   */
  private addedIds(held: Held, files: readonly string[]): string[] {
    const { usage } = this.build
    const modules = this.modulesOf(files)
    const last = held.checked
    const since = last?.files === modules ? usage.transformedSince(last.transforms) : undefined
    let candidates: Iterable<string>
    if (since) {
      const ids = new Set<string>()
      for (const file of since)
        if (modules.has(file)) for (const id of usage.idsOfFile(file) ?? []) ids.add(id)
      candidates = ids
    } else candidates = this.build.usedIds(files)
    held.checked = { files: modules, transforms: usage.transforms }
    let lowest = held.checked.transforms
    for (const other of this.held.values()) lowest = Math.min(lowest, other.checked?.transforms ?? 0)
    usage.forgetBefore(lowest)
    const added: string[] = []
    for (const id of candidates) if (!held.covered.has(id)) added.push(id)
    return added
  }

  /** The files of the compilation's modules `list`: the set kept before while they are the same. */
  private modulesOf(list: readonly string[]): ReadonlySet<string> {
    const kept = this.modules
    // A compilation lists its modules in the order it built them, which an edit's rebuild changes.
    if (kept && (kept.list === list || sameFiles(kept.files, list))) {
      kept.list = list
      return kept.files
    }
    const files = new Set(list)
    this.modules = { list, files }
    return files
  }

  /** The changes of a locale whose translations are no longer the base's: the whole catalog made and compared. */
  private recheckedChanges(locale: string, files: readonly string[], base: Base, revision: number): Held {
    const literal = this.build.catalogLiteralFor(locale, files)
    const covered = new Set(this.build.usedIds(files))
    if (literal === base.literal) return { translations: revision, covered, changed: {}, removed: [] }
    base.catalog ??= parseCatalog(base.literal)
    const changes = catalogChanges(base.catalog, parseCatalog(literal))
    return {
      translations: revision,
      covered,
      changed: changes?.changed ?? {},
      removed: changes?.removed ?? [],
    }
  }
}

/**
 * The changes held at an earlier revision of the locale's translations, with the entries of the ids
 * whose translation changed since made again: a `tms pull` changes a few of thousands, and the whole
 * catalog made and parsed again cost a tenth of a second per pull at 20,000 messages. An entry made
 * again is held as changed even when it is the base's again, and an id left with none as removed,
 * whether or not the base had it: the module is then a little longer, never wrong.
 */
function patched(from: Held, since: CatalogChanges, revision: number): Held {
  const changed = { ...from.changed, ...since.changed }
  const removed = new Set(from.removed)
  for (const id in since.changed) removed.delete(id)
  for (const id of since.removed) {
    delete changed[id]
    removed.add(id)
  }
  return {
    translations: revision,
    covered: from.covered,
    changed,
    removed: [...removed],
    checked: from.checked,
  }
}

/** Whether a list of modules names the files of `known`, in any order (a module has one entry per query). */
function sameFiles(known: ReadonlySet<string>, files: readonly string[]): boolean {
  for (const file of files) if (!known.has(file)) return false
  return files.length === known.size || new Set(files).size === known.size
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
