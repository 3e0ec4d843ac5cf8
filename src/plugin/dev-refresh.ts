import type { EnvironmentModuleNode, ModuleNode, ViteDevServer } from 'vite'

/**
 * After a `tms pull`, which of the page's modules to run again, so that only the components showing a
 * changed translation re-render: React Fast Refresh of the modules whose calls use a changed id,
 * instead of the runtime's announcement, which re-renders every `useLocale()` (from the app's root:
 * every component, ~0.5 s at 2,000 components in React's development build).
 *
 * Taken only where it is sure to show every change with no reload; otherwise none, and the page is
 * told as before. Each module must be a Fast Refresh boundary of the page (self-accepting, with the
 * React Refresh runtime among its imports): a Vue or Svelte component, or a plain module whose update
 * would reach the page through its importers (or reload it), is left to the announcement, which their
 * bindings answer by re-rendering what reads the locale. Every changed id must belong to a source
 * file: one no module's transform gave could be shown by code the plugin does not see. And at most
 * {@link AT_MOST} modules: past that, one render from the root costs less than fetching each again.
 * Running a module again is what saving it does: its module-level texts are made again too.
 */

/** The module plugin-react and plugin-react-swc import into every component module they refresh. */
const REACT_REFRESH = '/@react-refresh'
/** Past this many modules, the root's re-render is cheaper than a request and a transform per module. */
export const AT_MOST = 50

type PageModule = ModuleNode | EnvironmentModuleNode

/**
 * The source files that use one of the ids of `changed`; undefined when one of those ids belongs to
 * no source file (see above). `fileIds`: each source file's ids, as the build's usage has them.
 */
export function filesShowing(
  fileIds: ReadonlyMap<string, ReadonlySet<string>>,
  changed: ReadonlySet<string>,
): string[] | undefined {
  const files: string[] = []
  const found = new Set<string>()
  for (const [file, ids] of fileIds) {
    let uses = false
    for (const id of ids) {
      if (!changed.has(id)) continue
      uses = true
      found.add(id)
    }
    if (uses) files.push(file)
  }
  return found.size === changed.size ? files : undefined
}

/**
 * The page's modules that show the ids of `changed`, each a React Fast Refresh boundary: empty when
 * none of the modules the page loaded shows them. Undefined when the announcement must do (see
 * above).
 */
export function refreshTargets(
  server: ViteDevServer,
  fileIds: ReadonlyMap<string, ReadonlySet<string>>,
  changed: ReadonlySet<string>,
): PageModule[] | undefined {
  if (server.config.server.hmr === false) return undefined
  const files = filesShowing(fileIds, changed)
  if (!files) return undefined
  const graph = server.environments?.client?.moduleGraph ?? server.moduleGraph
  const targets: PageModule[] = []
  for (const file of files) {
    for (const mod of graph.getModulesByFile(file) ?? []) {
      if (!isRefreshBoundary(mod)) return undefined
      targets.push(mod)
      if (targets.length > AT_MOST) return undefined
    }
  }
  return targets
}

function isRefreshBoundary(mod: PageModule): boolean {
  if (mod.isSelfAccepting !== true) return false
  for (const imported of mod.importedModules) if (imported.url === REACT_REFRESH) return true
  return false
}

/** Runs the page's module again, as saving its file would (vite 6 and later per environment). */
export function refreshModule(server: ViteDevServer, mod: PageModule): void {
  const client = server.environments?.client
  if (client && 'reloadModule' in client) void client.reloadModule(mod as EnvironmentModuleNode)
  else void server.reloadModule(mod as ModuleNode)
}
