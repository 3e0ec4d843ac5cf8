import type { InputOptions, Plugin } from 'rollup'
import { unplugin } from './index'

/**
 * Rollup 3.0 and 3.1 do not flatten a plugin array nested in `plugins`: they take the array for one
 * plugin with no hooks, and the build runs without ours (`unplugin-tms/runtime` left unresolved).
 * Every rollup runs the `options` hook of each plugin it sees before the build, so the array itself
 * carries one that puts its plugins in its place; rollup 3.2 and later flatten the array before they
 * read any hook, and never call it.
 */
function spreadOnOldRollup(plugins: Plugin[]): Plugin[] {
  const options = (input: InputOptions): InputOptions => ({
    ...input,
    plugins: ([input.plugins] as unknown[]).flat(Number.POSITIVE_INFINITY) as Plugin[],
  })
  return Object.assign(plugins, { options })
}

/** The rollup plugin: `import tms from 'unplugin-tms/rollup'`. */
const plugin: typeof unplugin.rollup = (options) => {
  const made = unplugin.rollup(options)
  return Array.isArray(made) ? spreadOnOldRollup(made) : made
}
export default plugin
