import { join } from 'node:path'
import { extractUncached } from '../core/extract/file'
import type { Build } from './build'
import { rewriteMessageCalls } from './transform'

/**
 * A dev server's first message edit, readied while the server waits for it (vite's once its build is
 * synced, webpack's and rspack's once their first compilation is done): what the first edit would do
 * for the first time, in front of the developer, done beforehand.
 */

/** What {@link warmEditPath} reads: a call, a call with values, a JSX element and a template. */
const WARM_UP_MODULE = [
  "import { t } from 'unplugin-tms/runtime'",
  "export const A = ({ n }: { n: number }) => <p title={t('Warm {n}', { n })}>{t('Up')}</p>",
  'export const b = t`Ready`',
].join('\n')

/**
 * Readies the server's first message edit while it waits: at start every module came from the
 * extraction cache and the transform memo, so the first edit would load the parser, run the
 * extraction of a changed module for the first time, make the table of ids a new message is checked
 * against and rewrite a module as the server does for the first time (code the engine has not compiled
 * yet), in front of the developer. Reads and rewrites a made-up module and keeps nothing of it.
 * `keepPositions`: as the server's transform rewrites (vite's dev server: true).
 */
export function warmEditPath(build: Build | undefined, keepPositions: boolean): void {
  if (!build) return
  const { extractOptions } = build
  const file = join(build.options.root, '__tms_warm_up.tsx')
  const { result } = extractUncached(file, WARM_UP_MODULE, extractOptions, '', extractOptions.oneFileScanner)
  build.ids.holds('')
  rewriteMessageCalls({
    code: WARM_UP_MODULE,
    id: file,
    calls: result.calls,
    lookup: (site) => ({ id: 'warmUp', text: site.messageKey }),
    specs: build.specs,
    runtimeModule: extractOptions.runtimeModule,
    keepPositions,
    idOnly: build.sourceCatalog,
  })
}

/**
 * Readies a webpack or rspack watch's first edit: the edit path as vite's, and each locale's catalog
 * input (the id table, every message, the locale's translations decoded and checked), which the first
 * edit's catalog modules need for the ids it adds (hot-catalog.ts). One step per macrotask, so that
 * the dev server answers the page's requests in between; `open` false stops it (the watch closed).
 */
export function warmWatch(build: Build, open: () => boolean): void {
  const steps = [
    () => warmEditPath(build, false),
    ...build.locales.map((l) => () => void build.catalogInput(l)),
  ]
  const next = (): void => {
    const step = steps.shift()
    if (!step || !open()) return
    try {
      step()
    } catch {
      // A warm-up that fails costs the first edit its time, nothing more.
      return
    }
    setImmediate(next)
  }
  setImmediate(next)
}
