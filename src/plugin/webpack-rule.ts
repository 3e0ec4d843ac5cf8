/**
 * The transform's rule in webpack and rspack, made static. unplugin gives them the transform as a
 * rule whose `use` is a function: called for each module resolved, it checks the hook's id filter and
 * returns a new loader item. A watch resolves every module of the app again on each rebuild (webpack's
 * unsafe cache keeps node_modules' only), so each edit of a 2,000-module app made 2,000 such calls,
 * each with its own item for webpack to read, and rspack makes them from Rust into JavaScript. The
 * same rule with the one item made once and the id filter as the rule's own conditions (`test`,
 * `exclude`, matched by the bundler itself) gives each module the same loader: the loader still runs
 * the hook's filters, the code filter among them.
 */

/** The part of a rule this file reads: unplugin's transform rule has `enforce` and a `use` function. */
interface LikeRule {
  enforce?: 'pre' | 'post'
  use?: unknown
}

/**
 * A loader item as unplugin's `use` returns it; `options.plugin` is the plugin whose hook it runs
 * (webpack's: the plugin itself; rspack's: a copy, with the same hook).
 */
interface LoaderItem {
  loader: string
  options?: { plugin?: { transform?: unknown } }
  ident?: string
}

/**
 * Replaces unplugin's transform rule of `plugin` with a static one matching modules whose path
 * `include` matches and `exclude` does not (the hook's id filter). Called from the plugin's own
 * `webpack`/`rspack` hook, which unplugin calls right after it put that rule first; any other first
 * rule (another unplugin version's shape) is left as it is.
 */
export function staticTransformRule(
  rules: unknown[] | undefined,
  plugin: { transform?: unknown },
  include: RegExp,
  exclude: RegExp,
): void {
  const rule = rules?.[0] as LikeRule | undefined
  if (!rule || typeof rule.use !== 'function') return
  // A module the id filter takes: the item unplugin gives every module it takes.
  const items = (rule.use as (data: object) => unknown)({
    resource: '/unplugin-tms-rule.js',
    resourceQuery: '',
  })
  if (!Array.isArray(items) || items.length !== 1) return
  const item = items[0] as LoaderItem
  if (
    typeof item?.loader !== 'string' ||
    !plugin.transform ||
    item.options?.plugin?.transform !== plugin.transform
  )
    return
  rules![0] = { ...(rule.enforce ? { enforce: rule.enforce } : {}), test: include, exclude, use: [item] }
}
