import { hotCatalogsOf } from './hot-catalog'
import type { PullChannel } from './pull-channel'
import { isServerCompiler } from './server-compiler'
import type { TmsSession } from './session'
import { catalogModuleLocale } from './virtual'

/**
 * The catalog modules of a webpack or rspack watch (hot-catalog.ts), as one compiler gets them: a
 * page's fetches its base and, with the dev server's channel, takes pulled translations
 * (pull-channel.ts); a server compiler's imports its base module. The text each compiler's last load
 * gave is kept, so that a rebuild rebuilds only the catalog modules whose text changed.
 */

type CompilerOptions = Parameters<typeof isServerCompiler>[0]

/** What webpack's and rspack's hooks of one plugin hand each other. */
export interface WebpackLikeState {
  /** The modules of the compilation being finished: the catalogs hold only their messages. */
  files: string[] | undefined
  /** A watch's catalog modules as each compiler (its options) last loaded them, by virtual id. */
  readonly loaded: WeakMap<object, Map<string, string>>
  /** The page's channel of pulled translations, once a dev server set up its middlewares. */
  pulls: PullChannel | undefined
}

/** The decoded virtual id of a module (unplugin writes virtual modules under an encoded file name). */
export function virtualIdOf(resource: string): string | undefined {
  const at = resource.lastIndexOf('%00tms%2F')
  if (at < 0) return undefined
  try {
    return decodeURIComponent(resource.slice(at))
  } catch {
    return undefined
  }
}

function catalogModuleText(
  session: TmsSession,
  state: WebpackLikeState,
  options: CompilerOptions,
  locale: string,
  files: readonly string[] | undefined,
): string {
  const page = !isServerCompiler(options)
  const how = { fetch: page, pulls: page && state.pulls !== undefined }
  return hotCatalogsOf(session.build).catalogModule(locale, files, how)
}

/** The load of the catalog module `id` of `locale` by the compiler with `options`: its text, kept. */
export function loadWatchCatalogModule(
  session: TmsSession,
  state: WebpackLikeState,
  options: CompilerOptions,
  id: string,
  locale: string,
): string {
  const text = catalogModuleText(session, state, options, locale, state.files)
  if (options) {
    let loaded = state.loaded.get(options)
    if (!loaded) {
      loaded = new Map()
      state.loaded.set(options, loaded)
    }
    loaded.set(id, text)
  }
  return text
}

/**
 * The catalog modules of a watch whose text would change: most edits bring in no translated message
 * and leave every catalog module as it was, and a rebuild would cost webpack a load, a parse and a
 * hash of each (and its loaders' work: react-refresh's, ...) for nothing. The text is compared with
 * the one the compiler's last load of the module gave; a base module is rebuilt.
 */
export async function changedCatalogModules<M extends { resource?: string }>(
  session: TmsSession,
  state: WebpackLikeState,
  options: object,
  modules: M[],
  files: readonly string[],
): Promise<M[]> {
  try {
    await session.syncedLatest()
  } catch {
    // The rebuild's load reports the sync's error.
    return modules
  }
  const loaded = state.loaded.get(options)
  return modules.filter((m) => {
    const id = virtualIdOf(m.resource!)
    const locale = id === undefined ? undefined : catalogModuleLocale(id)
    const last = id === undefined ? undefined : loaded?.get(id)
    if (locale === undefined || last === undefined || !session.build.locales.includes(locale)) return true
    return last !== catalogModuleText(session, state, options as CompilerOptions, locale, files)
  })
}
