import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { FileContext } from './file-context'
import { mentionsKeyword } from './scan'
import { type ParseUnit, scriptBlockUnits } from './sources'

/**
 * The programs of a .svelte file as Svelte's own parser sees them: its `<script>` and
 * `<script module>` bodies, and every JavaScript expression of the markup (`{...}` tags, attribute
 * values, the heads of `{#if}`, `{#each}`, `{#await}`, `{#key}`, `{@html}`, `{@render}`, `{@const}`).
 * Each unit is padded with spaces up to its expression, so the oxc scan that reads it reports offsets
 * of the original file; an expression is wrapped in parentheses (the character before it is always
 * Svelte's own `{`, and the one after it `}`, both blanked here) so that an object literal is not read
 * as a block.
 */

// biome-ignore lint/suspicious/noExplicitAny: the Svelte AST is walked generically.
type SvelteNode = any

interface SvelteCompiler {
  parse(source: string, options: { modern: true; filename?: string }): SvelteNode
}

/** The compiler per project directory: loaded once per thread, or the reason it cannot be. */
const compilers = new Map<string, SvelteCompiler | Error>()

/**
 * svelte/compiler from the app's own project: the version that compiles the app is the one that
 * reads it. Synchronous, through require, so it works alike on the calling thread and in the
 * extractor's worker threads.
 */
function loadCompiler(cwd: string): SvelteCompiler | Error {
  let compiler = compilers.get(cwd)
  if (compiler === undefined) {
    try {
      compiler = createRequire(join(cwd, 'package.json'))('svelte/compiler') as SvelteCompiler
    } catch (error) {
      compiler = error as Error
    }
    compilers.set(cwd, compiler)
  }
  return compiler
}

/**
 * Whether a file's result depends on what the project has installed rather than on its text (svelte,
 * or Astro's parser for an .astro template, was missing): not remembered, so that installing it takes
 * effect on the next run.
 */
export function dependsOnInstall(result: { diagnostics: readonly { code: string }[] }): boolean {
  return result.diagnostics.some((d) => d.code === 'svelte-missing' || d.code === 'astro-missing')
}

/** Keys under which a Svelte node holds a JavaScript expression (or `{@const}`'s declaration). */
const EXPRESSION_KEYS = new Set(['expression', 'test', 'key', 'tag', 'declaration'])
/** Keys that hold binding patterns (`as item`, `then value`, snippet parameters) or no code at all. */
const SKIPPED_KEYS = new Set(['context', 'parameters', 'value', 'error', 'metadata', 'name_loc', 'loc'])

/** The expressions of a markup fragment, in document order: [start, end, is it a declaration]. */
function markupExpressions(node: SvelteNode, out: [number, number, boolean][]): void {
  if (Array.isArray(node)) {
    for (const child of node) markupExpressions(child, out)
    return
  }
  if (node === null || typeof node !== 'object') return
  for (const key of Object.keys(node)) {
    const child = node[key]
    if (child === null || typeof child !== 'object') continue
    if (EXPRESSION_KEYS.has(key) && typeof child.type === 'string' && !isSvelteNode(child)) {
      out.push([child.start, child.end, child.type === 'VariableDeclaration'])
    } else if (key === 'value' && node.type !== 'AwaitBlock') {
      // An attribute's value: an expression tag, or text and expression tags.
      markupExpressions(child, out)
    } else if (!SKIPPED_KEYS.has(key)) markupExpressions(child, out)
  }
}

/** Svelte's own nodes, walked into rather than read as JavaScript, should one sit under an expression key. */
function isSvelteNode(node: SvelteNode): boolean {
  return node.type === 'ExpressionTag' || node.type === 'Fragment'
}

function langOf(code: string, script: SvelteNode): ParseUnit['lang'] {
  const head = code.slice(script.start, script.content.start)
  return /\blang\s*=\s*["']?(ts|typescript)\b/i.test(head) ? 'ts' : 'jsx'
}

/** The start offset and a short text of a Svelte parse error (its `position`, else `start`). */
function parseErrorAt(error: SvelteNode): { offset: number | null; text: string } {
  const offset = error?.position?.[0] ?? error?.start?.character ?? null
  const text = String(error?.message ?? error).split('\n')[0]!
  return { offset: typeof offset === 'number' ? offset : null, text }
}

/**
 * The units of one .svelte file. Without svelte/compiler in the project, or on markup Svelte itself
 * rejects, only the script blocks are read, with a warning saying why.
 */
export function svelteUnits(ctx: FileContext): ParseUnit[] {
  const { file, code, options } = ctx
  const compiler = loadCompiler(options.cwd)
  if (compiler instanceof Error) {
    ctx.report(
      'warning',
      'svelte-missing',
      null,
      `the markup is not read because svelte/compiler cannot be loaded from ${options.cwd} (${compiler.message.split('\n')[0]}); install Svelte 5 in the project (npm install -D svelte); only the <script> blocks are extracted`,
    )
    return scriptBlockUnits(file, code)
  }
  let ast: SvelteNode
  try {
    ast = compiler.parse(code, { modern: true, filename: file })
  } catch (error) {
    const { offset, text } = parseErrorAt(error)
    ctx.report(
      'warning',
      'svelte-parse-error',
      offset,
      `Svelte cannot parse this component (${text}); only its <script> blocks are extracted`,
    )
    return scriptBlockUnits(file, code)
  }
  const units: ParseUnit[] = []
  let lang: ParseUnit['lang'] = 'jsx'
  for (const script of [ast.module, ast.instance]) {
    if (!script) continue
    const { start, end } = script.content
    const scriptLang = langOf(code, script)
    if (scriptLang === 'ts') lang = 'ts'
    units.push({
      parseName: file,
      code: ' '.repeat(start) + code.slice(start, end),
      lang: scriptLang,
      sourceType: 'module',
    })
  }
  const expressions: [number, number, boolean][] = []
  markupExpressions(ast.fragment, expressions)
  const imports = scriptImports(ast, options.runtimeModule)
  for (const [start, end, declaration] of expressions) {
    const text = code.slice(start, end)
    if (!mentionsKeyword(text, options) && !imports.locals.some((name) => text.includes(name))) continue
    const unit = imports.around(
      code,
      declaration ? start : start - 1,
      declaration ? `${text};` : `(${text});`,
    )
    units.push({ parseName: file, code: unit, lang, sourceType: 'module' })
  }
  return units
}

/**
 * The scripts' import declarations, which a markup expression sees as the script does: each markup
 * unit holds them at their own offsets around the expression (imports are hoisted, so one written
 * after the markup counts too), so `import { t as tr }` makes `{tr('...')}` a message and
 * `import { setLocale as t }` makes `{t(...)}` none.
 */
function scriptImports(
  ast: SvelteNode,
  runtimeModule: string,
): { locals: string[]; around: (code: string, at: number, text: string) => string } {
  const ranges: [number, number][] = []
  const locals: string[] = []
  for (const script of [ast.module, ast.instance]) {
    for (const node of script?.content.body ?? []) {
      if (node.type !== 'ImportDeclaration') continue
      ranges.push([node.start, node.end])
      if (node.source.value === runtimeModule) for (const s of node.specifiers) locals.push(s.local.name)
    }
  }
  return {
    locals,
    around(code, at, text) {
      // Each import ends with `;` in the blank after it: the expression may start with `(`.
      const pieces: [number, string][] = ranges.map(([start, end]) => [start, `${code.slice(start, end)};`])
      pieces.push([at, text])
      pieces.sort((a, b) => a[0] - b[0])
      let out = ''
      for (const [offset, piece] of pieces) out += ' '.repeat(offset - out.length) + piece
      return out
    },
  }
}
