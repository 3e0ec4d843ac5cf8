import { jsString } from '../core/js-string'

/**
 * The page's end of the channel of pulled translations of webpack's and rspack's dev servers
 * (pull-channel.ts): code of the runtime module and of each locale's catalog module.
 *
 * The runtime module listens to the channel. Each catalog module registers how to merge an update
 * into the catalog it made (`_p`): the same object the runtime holds while the page shows the locale,
 * so a change merged shows at the next render. When every module the update names that the page
 * loaded is a React Fast Refresh boundary (self-accepting, with React Refresh's runtime in the page),
 * the merge is quiet and those modules run again (`hot.invalidate()`, then `hot.apply()`: what saving
 * their files does): only their components re-render. Otherwise, or when the hot runtime is busy with an
 * update of its own, the merge announces the locale (`_u`): every `useLocale()` re-renders.
 *
 * The watch's rebuild then updates the catalog module; its new instance compares its catalog with the
 * one the page holds over the ids either instance changed from the base, and keeps the page's when
 * they agree: a pull the channel brought is not rendered twice.
 */

/** Runtime module code: `_p(locale, merge)` and the channel's listener. */
export function pullsClient(route: string): string {
  return (
    'const __tms_merges = {};\n' +
    'export function _p(locale, merge) { __tms_merges[locale] = merge; }\n' +
    // React Refresh runs in the page: webpack's plugin (@pmmmwh) gives webpack's require its `$Refresh$`,
    // rspack's (@rspack/plugin-react-refresh) has none; both entries set a flag on the global object.
    'function __tms_refreshes() {\n' +
    '  if (__webpack_require__.$Refresh$) return true;\n' +
    '  for (const key in globalThis) if (key.startsWith("__reactRefreshInjected")) return true;\n' +
    '  return false;\n' +
    '}\n' +
    // The modules among `ids` the page loaded; undefined when one of them is no Fast Refresh boundary.
    'function __tms_boundaries(ids) {\n' +
    '  const found = [];\n' +
    '  for (const id of ids) {\n' +
    '    const m = __webpack_require__.c[id];\n' +
    '    if (!m) continue;\n' +
    '    if (!m.hot || !m.hot._selfAccepted) return undefined;\n' +
    '    found.push(m);\n' +
    '  }\n' +
    '  return found.length === 0 || __tms_refreshes() ? found : undefined;\n' +
    '}\n' +
    'if (import.meta.webpackHot && typeof EventSource === "function") {\n' +
    '  const hot = import.meta.webpackHot;\n' +
    `  const source = new EventSource(new URL(${jsString(route)}, new URL(__webpack_public_path__, location.href)));\n` +
    '  source.onmessage = (event) => {\n' +
    '    const update = JSON.parse(event.data);\n' +
    '    const merge = __tms_merges[update.locale];\n' +
    '    if (!merge) return;\n' +
    '    const modules = update.modules && hot.status() === "idle" ? __tms_boundaries(update.modules) : undefined;\n' +
    '    const announce = () => merge({ changed: {}, removed: [] }, true);\n' +
    '    merge(update, !modules).then(() => {\n' +
    '      if (!modules || modules.length === 0) return;\n' +
    '      if (hot.status() !== "idle") return announce();\n' +
    // `invalidate()` makes the module's own code its update; it also marks the module as one that
    // cannot take it, so webpack would run its importers again too (the app's root, every child with
    // it). Cleared, the module takes the update itself, as when its file is saved.
    '      for (const m of modules) { m.hot.invalidate(); m.hot._selfInvalidated = false; }\n' +
    '      return hot.apply({ ignoreUnaccepted: true }).then(undefined, announce);\n' +
    '    });\n' +
    '  };\n' +
    '  hot.dispose(() => source.close());\n' +
    '}\n'
  )
}

/**
 * The hot part of a page's catalog module with the channel (hot-catalog.ts): it registers its merge
 * with the runtime, and an update of the module keeps the page's catalog when it shows the update's.
 * `ids`: the ids this instance changes from the base (changed or removed). `failed` is the module's
 * handler of a base that did not load.
 */
export function catalogPullsHot(locale: string, ids: readonly string[]): string {
  const key = jsString(locale)
  return (
    `  const ids = ${JSON.stringify(ids)};\n` +
    '  hot.dispose((data) => { data.url = url; data.fetched = fetched; data.made = made; data.ids = ids; });\n' +
    `  _p(${key}, (update, announce) => (made ? made.then((catalog) => {\n` +
    '    Object.assign(catalog, update.changed);\n' +
    '    for (const id of update.removed) delete catalog[id];\n' +
    `    if (announce) _u(${key}, catalog);\n` +
    '  }, () => {}) : Promise.resolve()));\n' +
    '  if (hot.data) {\n' +
    '    const was = hot.data.made;\n' +
    '    const both = ids.concat(hot.data.ids || []);\n' +
    '    const shows = (old, catalog) => both.every((id) => JSON.stringify(old[id]) === JSON.stringify(catalog[id]));\n' +
    `    make().then((catalog) => (was ? was.then((old) => { if (shows(old, catalog)) made = was; else _u(${key}, catalog); }, () => _u(${key}, catalog)) : _u(${key}, catalog)), failed);\n` +
    '  }\n'
  )
}
