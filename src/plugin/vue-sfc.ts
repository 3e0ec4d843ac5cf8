import { relative } from 'node:path'
import type { Diagnostic, FileExtraction, Markup } from '../core/extract/types'

/**
 * What the transform needs to know of a .vue file's layout: where the lookup's import goes so that
 * both its scripts and its template can call it, and how code written into template markup is kept
 * valid markup.
 *
 * The import goes into `<script setup>`: Vue's compiler exposes what that block imports to the
 * template (and hoists it to the module, where a plain `<script>` sees it too). A component without
 * `<script setup>` whose template calls `t` gets one holding only the import, in the language of its
 * `<script>`, appended at the end of the file so every original offset stays where it was.
 */

/** The module that .vue files import their lookup from: the runtime's, read by the render (reactive). */
export const VUE_BINDING = 'unplugin-tms/vue'

const SCRIPT_OPEN = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi
const COMMENT = /<!--[\s\S]*?-->/g
const SETUP = /(?:^|\s)setup(?:[\s=]|$)/i
const LANG = /\blang\s*=\s*["']?([\w-]+)/i

const SCRIPT_BLOCK = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi
const SETUP_OPTION = /\bsetup\s*[(:]/

/**
 * Can the template be given the lookup? Yes with a `<script setup>`, or with none that an appended one
 * would break: Vue replaces a `setup()` option of the plain `<script>` by the appended block's, and
 * the bindings it returned would be gone.
 */
export function templateCanImport(code: string): boolean {
  const scan = code.includes('<!--') ? code.replace(COMMENT, (c) => ' '.repeat(c.length)) : code
  SCRIPT_BLOCK.lastIndex = 0
  let plainSetup = false
  for (let m = SCRIPT_BLOCK.exec(scan); m; m = SCRIPT_BLOCK.exec(scan)) {
    if (SETUP.test(m[1] ?? '')) return true
    if (SETUP_OPTION.test(m[2] ?? '')) plainSetup = true
  }
  return !plainSetup
}

/** A request of a .vue file whose code is not the component as written (vite's compiled parts). */
export function isCompiledVuePart(file: string, code: string): boolean {
  return /\.vue$/i.test(file) && !/<(?:template|script)[\s>]/i.test(code)
}

/** An insertion into the file's text. */
export interface Insertion {
  at: number
  text: string
}

/** Where `statement` goes in a .vue file; `template`: some call is in the template. */
export function vueImport(code: string, statement: string, template: boolean, firstCall: number): Insertion {
  const scan = code.includes('<!--') ? code.replace(COMMENT, (c) => ' '.repeat(c.length)) : code
  let lang: string | undefined
  let last = -1
  SCRIPT_OPEN.lastIndex = 0
  for (let m = SCRIPT_OPEN.exec(scan); m; m = SCRIPT_OPEN.exec(scan)) {
    let at = m.index + m[0].length
    if (code[at] === '\n') at++
    const attrs = m[1] ?? ''
    if (SETUP.test(attrs)) return { at, text: statement }
    lang ??= LANG.exec(attrs)?.[1]
    if (m.index < firstCall) last = at
  }
  if (!template && last >= 0) return { at: last, text: statement }
  const open = lang === undefined ? '<script setup>' : `<script setup lang="${lang}">`
  const gap = code.endsWith('\n') ? '' : '\n'
  return { at: code.length, text: `${gap}${open}\n${statement}</script>\n` }
}

const ENTITY: Record<string, string> = { '&': '&amp;', '"': '&quot;', "'": '&#39;' }

/**
 * Code written inside template markup: an attribute value cannot hold its own quote, an unquoted one
 * no space or `>`, and an interpolation no `}}`. The code written is the lookup's head and JSON
 * literals (double-quoted). In single quotes, a quote is written as an entity, which Vue decodes
 * before compiling the expression.
 */
export function forMarkup(text: string, markup: Markup): string {
  switch (markup) {
    case 'double':
      return inSingleQuotes(text)
    case 'single':
      return text.replace(/[&']/g, (c) => ENTITY[c]!)
    case 'unquoted':
      // Outside strings a space is only layout; inside, the same string spelled with escapes.
      return rewriteOutsideEscapes(text, (c, quoted) =>
        c === ' ' ? (quoted ? '\\u0020' : '') : c === '>' && quoted ? '\\u003e' : c,
      )
    default:
      // A compiled plural's `{...}}` becomes `{...} }`, a string's `}}` the same string as `}\u007d`.
      return text.includes('}}')
        ? rewriteOutsideEscapes(text, (c, quoted, out) =>
            c === '}' && out.endsWith('}') ? (quoted ? '\\u007d' : ' }') : c,
          )
        : text
  }
}

/**
 * `code` for a double-quoted attribute: its strings in single quotes, with a `"`, `'` or `&` inside
 * them as an escape. The attribute holds no entity, so Vue (which decodes entities before compiling)
 * and a second extraction (which reads the attribute as written) read the same JS.
 */
function inSingleQuotes(code: string): string {
  if (!/["&]/.test(code)) return code
  let out = ''
  let quoted = false
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!
    if (c === '"') {
      quoted = !quoted
      out += "'"
    } else if (!quoted) out += c === '&' ? '&amp;' : c
    else if (c === '\\') {
      const escaped = code[++i] ?? ''
      out += escaped === '"' ? '\\x22' : `\\${escaped}`
    } else out += c === "'" ? "\\'" : c === '&' ? '\\x26' : c
  }
  return out
}

/** `text` with each character outside escapes replaced by `spell(character, inside a string, so far)`. */
function rewriteOutsideEscapes(
  text: string,
  spell: (c: string, quoted: boolean, out: string) => string,
): string {
  let out = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted && c === '\\') {
      out += c + (text[++i] ?? '')
      continue
    }
    if (c === '"') quoted = !quoted
    out += spell(c, quoted, out)
  }
  return out
}

/**
 * Why the template's messages of a .vue file are left as written, if they are: a component whose plain
 * `<script>` has a `setup()` option cannot be given a `<script setup>`, which holds the template's
 * lookup (its import in runtime mode, inline mode's lookup functions). Said once per file.
 */
export function templateProblem(fx: FileExtraction, code: string, cwd: string): Diagnostic | undefined {
  const sites = fx.calls.filter((c) => c.markup !== undefined || c.kind === 'attribute')
  const first = sites[0]
  if (first === undefined || templateCanImport(code)) return undefined
  const rel = relative(cwd, fx.file) || fx.file
  const count =
    sites.length === 1 ? '1 message of this template shows' : `${sites.length} messages of this template show`
  return {
    severity: 'warning',
    code: 'vue-template-setup',
    message: `${rel}:${first.line}:${first.column}: the template cannot be given the lookup: its <script> has a setup() option and there is no <script setup>: the ${count} the source text in every locale (the <script> messages are translated); move setup() into <script setup>, or call t in the script and render the result`,
    file: fx.file,
    line: first.line,
    column: first.column,
  }
}
