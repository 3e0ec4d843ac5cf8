import type { CAC } from 'cac'

/** `allowStale` as the user types it: `allow-stale`. */
export const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/**
 * cac declares a flag such as `--allow-stale` as boolean under its camelCase name (`allowStale`)
 * only, while its argument parser meets the kebab-case spelling, finds it undeclared, and takes the
 * next positional as the flag's value (`tms import --dry-run fr.po` lost its file; `tms pull
 * --allow-stale fr-FR` swallowed a stray argument). Declaring the kebab-case spelling as an alias of
 * every boolean flag, once for every command, lets the parser leave positionals alone.
 */
export function declareKebabBooleans(cli: CAC): void {
  for (const command of [cli.globalCommand, ...cli.commands]) {
    for (const option of command.options) {
      if (!option.isBoolean) continue
      for (const name of [...option.names]) {
        const spelled = kebab(name)
        if (spelled !== name && !option.names.includes(spelled)) option.names.push(spelled)
      }
    }
  }
}
