import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { ParseUnit } from '../extract/sources'
import type { Framework } from './file-state'

/**
 * The expressions of a Vue template or of Svelte markup (`{{ $t('key') }}`, `:title="t('x')"`,
 * `{$t('key')}`), each as its own program padded to its offset in the file, read with the framework's
 * own parser from the project (never with regexes), so the conversions see them as script code.
 */

// biome-ignore lint/suspicious/noExplicitAny: the compilers' ASTs, read structurally.
type Node = any

function load(cwd: string, names: string[]): Node | Error {
  const require = createRequire(join(cwd, 'package.json'))
  let last: Error = new Error('not found')
  for (const name of names) {
    try {
      return require(name)
    } catch (error) {
      last = error as Error
    }
  }
  return last
}

function unit(file: string, code: string, start: number, end: number): ParseUnit {
  return {
    parseName: file,
    code: `${' '.repeat(start - 1)}(${code.slice(start, end)});`,
    lang: 'ts',
    sourceType: 'module',
  }
}

const VUE_INTERPOLATION = 5
const VUE_ELEMENT = 1
const VUE_DIRECTIVE = 7

function vueUnits(file: string, code: string, cwd: string): ParseUnit[] | string {
  if (!/<template[\s>]/i.test(code)) return []
  const compiler = load(cwd, ['vue/compiler-sfc', '@vue/compiler-sfc'])
  if (compiler instanceof Error)
    return `its <template> is not read: Vue's compiler is not installed in ${cwd}`
  const { descriptor, errors } = compiler.parse(code, { filename: file, sourceMap: false })
  if (errors.length > 0)
    return `it does not parse as a Vue component (${errors[0].message}); its template was not changed`
  const out: ParseUnit[] = []
  const add = (exp: Node): void => {
    if (exp && !exp.isStatic && exp.loc.end.offset > exp.loc.start.offset)
      out.push(unit(file, code, exp.loc.start.offset, exp.loc.end.offset))
  }
  const visit = (node: Node): void => {
    if (node.type === VUE_INTERPOLATION) add(node.content)
    if (node.type === VUE_ELEMENT)
      for (const p of node.props ?? [])
        if (p.type === VUE_DIRECTIVE && !['for', 'slot', 'on'].includes(p.name)) add(p.exp)
    for (const child of node.children ?? []) visit(child)
  }
  if (descriptor.template?.ast) visit(descriptor.template.ast)
  return out
}

const SVELTE_KEYS = new Set(['expression', 'test'])

function svelteUnits(file: string, code: string, cwd: string): ParseUnit[] | string {
  const compiler = load(cwd, ['svelte/compiler'])
  if (compiler instanceof Error) return `its markup is not read: svelte/compiler is not installed in ${cwd}`
  let ast: Node
  try {
    ast = compiler.parse(code, { modern: true, filename: file })
  } catch (error) {
    return `Svelte cannot parse it (${String((error as Error).message).split('\n')[0]}); its markup was not changed`
  }
  const out: ParseUnit[] = []
  const visit = (node: Node): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (node === null || typeof node !== 'object') return
    for (const key of Object.keys(node)) {
      const child = node[key]
      if (child === null || typeof child !== 'object') continue
      if (SVELTE_KEYS.has(key) && typeof child.type === 'string' && typeof child.start === 'number')
        out.push(unit(file, code, child.start, child.end))
      else visit(child)
    }
  }
  visit(ast.fragment)
  return out
}

/** The markup expressions of a .vue or .svelte file, or why its markup could not be read. */
export function markupUnits(
  file: string,
  code: string,
  framework: Framework,
  cwd: string,
): ParseUnit[] | string {
  if (framework === 'vue') return vueUnits(file, code, cwd)
  if (framework === 'svelte') return svelteUnits(file, code, cwd)
  return []
}
