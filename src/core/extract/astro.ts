import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { FileContext } from './file-context'
import { mentionsKeyword } from './scan'
import { astroFrontmatterUnits, type ParseUnit } from './sources'

/**
 * The programs of an .astro file as written: its frontmatter (sources.ts), and every expression of its
 * template (`<h1>{t('Welcome')}</h1>`, `<Island label={t('Save')} />`, `{...spread}`), found with
 * Astro's own parser (@astrojs/compiler-rs, the compiler of the project's Astro 7). Each expression is
 * one unit padded with spaces up to its `{`, so the oxc scan reports offsets of the original file and
 * the transform rewrites the call where it stands; Astro then compiles the rewritten template, whose
 * expressions see the frontmatter's imports (the lookup's too). The `{` and `}` become `(` and `)`, so
 * an object literal is not read as a block. A template expression may hold markup
 * (`{items.map((i) => <li>{t('Item')}</li>)}`): units are TSX, and only outermost expressions are
 * taken, the inner ones being part of them. Astro's compiled output (`$$createComponent`) is one
 * module already, read whole by sources.ts.
 */

/** The few fields of Astro's ESTree-shaped template AST read here; offsets are UTF-16, as JS strings. */
interface AstroNode {
  type: string
  start: number
  end: number
  expression?: { type: string }
  [key: string]: unknown
}

interface AstroCompiler {
  parse(source: string): { ast: { body: AstroNode[]; frontmatter?: AstroNode } }
}

/** The compiler per project directory: loaded once per thread, or the reason it cannot be. */
const compilers = new Map<string, AstroCompiler | Error>()

/**
 * @astrojs/compiler-rs as the project's Astro resolves it (a dependency of `astro`, not of the app):
 * the parser of the Astro that compiles the app. Synchronous, so it loads alike in worker threads.
 */
function loadCompiler(cwd: string): AstroCompiler | Error {
  let compiler = compilers.get(cwd)
  if (compiler === undefined) {
    try {
      const astro = createRequire(join(cwd, 'package.json')).resolve('astro/package.json')
      compiler = createRequire(astro)('@astrojs/compiler-rs') as AstroCompiler
      if (typeof compiler.parse !== 'function') throw new Error('it has no parse()')
    } catch (error) {
      compiler = error as Error
    }
    compilers.set(cwd, compiler)
  }
  return compiler
}

/** Diagnostic code of a file whose template could not be read because Astro's parser is missing. */
const ASTRO_MISSING = 'astro-missing'

/**
 * The outermost expressions of the template, in document order (`{...}` containers and spreads), and
 * the programs of its processed `<script>` elements.
 */
function templateExpressions(node: unknown, out: AstroNode[], scripts: AstroNode[]): void {
  if (Array.isArray(node)) {
    for (const child of node) templateExpressions(child, out, scripts)
    return
  }
  if (node === null || typeof node !== 'object') return
  const n = node as AstroNode
  if (n.type === 'JSXExpressionContainer' || n.type === 'JSXSpreadAttribute' || n.type === 'JSXSpreadChild') {
    if (n.expression?.type !== 'JSXEmptyExpression') out.push(n)
    return
  }
  if (n.type === 'AstroScript') {
    scripts.push(n.program as AstroNode)
    return
  }
  for (const key of Object.keys(n)) if (key !== 'frontmatter') templateExpressions(n[key], out, scripts)
}

/**
 * A message call in a `<script>` of an .astro file: Astro bundles that script as a module of its own,
 * which the transform does not rewrite (it gets the script's body alone, at other offsets), so each
 * such call is a warning at its place rather than a text that silently stays in the source language.
 */
function reportScriptCalls(ctx: FileContext, node: unknown, callees: ReadonlySet<string>): void {
  if (Array.isArray(node)) {
    for (const child of node) reportScriptCalls(ctx, child, callees)
    return
  }
  if (node === null || typeof node !== 'object') return
  const n = node as AstroNode
  const callee = (
    n.type === 'CallExpression' ? n.callee : n.type === 'TaggedTemplateExpression' ? n.tag : null
  ) as AstroNode | null
  if (callee && callees.has(ctx.code.slice(callee.start, callee.end))) {
    ctx.report(
      'warning',
      'astro-script-message',
      callee.start,
      `a message in a <script> of an .astro file is not extracted: it shows the source text in every locale; move this code into a .ts module the script imports (a module of \`include\` is extracted and rewritten)`,
    )
  }
  for (const key of Object.keys(n)) reportScriptCalls(ctx, n[key], callees)
}

/**
 * The units of one .astro file (one that mentions a keyword: file.ts's pre-check). Compiled output is
 * one module; a file as written gives its frontmatter and, when Astro's parser loads and reads the
 * file, each template expression that mentions a keyword or a name the frontmatter imports from the
 * runtime. Without the parser, or on a file it rejects, only the frontmatter, with a warning.
 */
export function astroUnits(ctx: FileContext): ParseUnit[] {
  const { file, code, options } = ctx
  const units = astroFrontmatterUnits(file, code)
  if (code.includes('$$createComponent')) return units
  const compiler = loadCompiler(options.cwd)
  if (compiler instanceof Error) {
    ctx.report(
      'warning',
      ASTRO_MISSING,
      null,
      `the template is not read because Astro's parser (@astrojs/compiler-rs, Astro 7) cannot be loaded from ${options.cwd} (${compiler.message.split('\n')[0]}); its messages show the source text in every locale: install Astro 7 in the project, or call t in the frontmatter and render the result`,
    )
    return units
  }
  let ast: { body: AstroNode[]; frontmatter?: AstroNode }
  try {
    ast = compiler.parse(code).ast
  } catch (error) {
    ctx.report(
      'warning',
      'astro-parse-error',
      null,
      `Astro cannot parse this component (${String((error as Error)?.message ?? error).split('\n')[0]}); only its frontmatter is extracted`,
    )
    return units
  }
  const templateStart = ast.frontmatter?.end ?? 0
  const imports = frontmatterImports(code, ast.frontmatter, options.runtimeModule)
  const mentions = (text: string): boolean =>
    mentionsKeyword(text, options) || imports.locals.some((name) => text.includes(name))
  const expressions: AstroNode[] = []
  const scripts: AstroNode[] = []
  templateExpressions(ast.body, expressions, scripts)
  const callees = new Set(options.keywords.map((k) => k.name))
  for (const script of scripts)
    if (mentionsKeyword(code.slice(script.start, script.end), options))
      reportScriptCalls(ctx, script, callees)
  for (const node of expressions) {
    const { start, end } = node
    if (start < templateStart || !mentions(code.slice(start, end))) continue
    // A container's `{` and `}` become parentheses in place; a spread keeps its braces inside them.
    const text =
      node.type === 'JSXExpressionContainer'
        ? `(${code.slice(start + 1, end - 1)});`
        : `(${code.slice(start, end)});`
    const at = node.type === 'JSXExpressionContainer' ? start : start - 1
    units.push({ parseName: file, code: imports.around(at, text), lang: 'tsx', sourceType: 'module' })
  }
  return units
}

/**
 * The frontmatter's import declarations, which a template expression sees as the frontmatter does:
 * each expression's unit holds them at their own offsets before it, so `import { t as tr }` makes
 * `{tr('...')}` a message and `import { setLocale as t }` makes `{t(...)}` none.
 */
function frontmatterImports(
  code: string,
  frontmatter: AstroNode | undefined,
  runtimeModule: string,
): { locals: string[]; around: (at: number, text: string) => string } {
  const program = frontmatter?.program as { body?: AstroNode[] } | undefined
  const pieces: [number, string][] = []
  const locals: string[] = []
  for (const node of program?.body ?? []) {
    if (node.type !== 'ImportDeclaration') continue
    // Each import ends with `;` in the blank after it: the expression starts with `(`.
    pieces.push([node.start, `${code.slice(node.start, node.end)};`])
    if ((node.source as { value?: unknown }).value !== runtimeModule) continue
    for (const s of node.specifiers as { local: { name: string } }[]) locals.push(s.local.name)
  }
  return {
    locals,
    around(at, text) {
      let out = ''
      for (const [offset, piece] of pieces) out += ' '.repeat(offset - out.length) + piece
      return out + ' '.repeat(at - out.length) + text
    },
  }
}
