import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { type Options, TmsConfigError } from './options'

/** Config file names, in the order they are looked for in each directory. */
export const CONFIG_FILES: readonly string[] = [
  'tms.config.ts',
  'tms.config.mjs',
  'tms.config.js',
  'tms.config.json',
]

/** The nearest `tms.config.*` at or above `from`, or undefined. */
export function findConfigFile(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILES) {
      const file = join(dir, name)
      if (existsSync(file)) return file
    }
    if (dirname(dir) === dir) return undefined
  }
}

/** Reads a config file: JSON, or a module whose default export is the options object. */
export async function readConfigFile(file: string): Promise<Options> {
  let value: unknown
  try {
    if (file.endsWith('.json')) {
      value = JSON.parse(await readFile(file, 'utf8'))
    } else {
      // Loaded only for a module config: most runs never pay for it.
      const { createJiti } = await import('jiti')
      const jiti = createJiti(import.meta.url, { moduleCache: false })
      value = await jiti.import(file, { default: true })
    }
  } catch (error) {
    throw new TmsConfigError('config', `cannot read ${file}: ${(error as Error).message}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TmsConfigError(
      'config',
      `${file} must export an options object (export default { locales: [...] })`,
    )
  }
  return value as Options
}

/**
 * Options for a run: the nearest config file's, overridden field by field by the inline ones. With
 * inline options that name `locales`, a config file is not required.
 */
export async function loadOptions(
  inline: Options = {},
  from: string = inline.root ?? process.cwd(),
): Promise<Options> {
  const file = findConfigFile(from)
  if (!file) return inline
  const fromFile = await readConfigFile(file)
  return { root: dirname(file), ...fromFile, ...inline }
}
