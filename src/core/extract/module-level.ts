/**
 * What kind of call site a keyword call is, beyond its form: a descriptor (the runtime's `msg`), or a
 * message call evaluated at module level, which the plugin warns of in runtime mode (it runs once, as
 * the module loads, before any `setLocale`). Each scanner hands the ranges of the program's functions
 * and classes to `FileContext.deferred`; a call in none of them runs at module level.
 */
import type { KeywordSpec } from './keywords'
import type { CallSite, Range } from './types'

/** What the marking reads of the file's context (file-context.ts's `FileContext`; calls.ts calls this). */
interface SiteContext {
  readonly file: string
  deferred: readonly Range[] | (() => readonly Range[]) | null
}

/** Scripts that run per component instance or request, not once per module: never marked. */
const PER_INSTANCE = /\.(?:vue|svelte|astro)$/i

/** Marks a descriptor site, or a message call at module level. */
export function markSite(ctx: SiteContext, site: CallSite, spec: KeywordSpec): void {
  if (spec.descriptor) site.descriptor = true
  else if (atModuleLevel(ctx, site)) site.moduleLevel = true
}

/** Whether the call at `node` is outside every function and class of a plain script. */
function atModuleLevel(ctx: SiteContext, node: Range): boolean {
  if (ctx.deferred === null || PER_INSTANCE.test(ctx.file)) return false
  if (typeof ctx.deferred === 'function') ctx.deferred = ctx.deferred()
  for (const r of ctx.deferred) if (r.start <= node.start && node.end <= r.end) return false
  return true
}
