/**
 * What oxc-parser is asked to parse for one file. A .vue or .svelte file yields one program per
 * `<script>` block, each padded with spaces in front so that every offset the parser reports is already
 * an offset in the original file: no position mapping afterwards, and line/column come from the
 * original text.
 */
export interface ParseUnit {
  /** Name handed to the parser (shown in its messages). */
  parseName: string
  code: string
  /** JavaScript is always read with JSX on: create-react-app style `.js` files hold JSX. */
  lang: 'jsx' | 'ts' | 'tsx'
  sourceType: 'module' | 'commonjs' | 'unambiguous'
}

const SCRIPT_BLOCK = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi
const LANG_ATTR = /\blang\s*=\s*["']?([\w-]+)/i
const COMMENT = /<!--[\s\S]*?-->/g

function kindOf(file: string): Pick<ParseUnit, 'lang' | 'sourceType'> | null {
  const dot = file.lastIndexOf('.')
  const ext = dot < 0 ? '' : file.slice(dot + 1).toLowerCase()
  switch (ext) {
    case 'js':
    case 'jsx':
      return { lang: 'jsx', sourceType: 'unambiguous' }
    case 'mjs':
      return { lang: 'jsx', sourceType: 'module' }
    case 'cjs':
      return { lang: 'jsx', sourceType: 'commonjs' }
    case 'ts':
      return { lang: 'ts', sourceType: 'unambiguous' }
    case 'mts':
      return { lang: 'ts', sourceType: 'module' }
    case 'cts':
      return { lang: 'ts', sourceType: 'commonjs' }
    case 'tsx':
      return { lang: 'tsx', sourceType: 'unambiguous' }
    default:
      return null
  }
}

/** True for files the extractor understands: JS/TS flavours, .vue/.svelte script blocks, .astro frontmatter. */
export function isExtractable(file: string): boolean {
  return kindOf(file) !== null || /\.(vue|svelte|astro)$/i.test(file)
}

/** The frontmatter of an .astro file: TypeScript between two `---` fences at the top. */
const FRONTMATTER = /^(\s*---[^\S\r\n]*\r?\n)([\s\S]*?)\n---/

/**
 * An .astro file arrives either as written (the files read at build start) or as Astro's compiler
 * output (a transform after Astro's own), a TypeScript module whose component function holds the
 * frontmatter code as it was: the same calls, so the same ids, either way. The template's expressions
 * of a file as written are astro.ts's: they need Astro's parser.
 */
export function astroFrontmatterUnits(file: string, code: string): ParseUnit[] {
  if (code.includes('$$createComponent')) return [{ parseName: file, code, lang: 'ts', sourceType: 'module' }]
  const m = FRONTMATTER.exec(code)
  if (!m) return []
  const bodyStart = m[1]!.length
  const body = m[2]!
  return [{ parseName: file, code: ' '.repeat(bodyStart) + body, lang: 'ts', sourceType: 'module' }]
}

/**
 * The programs inside `code`. Plain JS/TS is one unit; .vue/.svelte give one per script block (none
 * when there is no script); .astro its frontmatter. Unknown extensions are parsed as TSX, the most permissive language.
 */
export function parseUnits(file: string, code: string): ParseUnit[] {
  const kind = kindOf(file)
  if (kind !== null) return [{ parseName: file, code, ...kind }]
  if (/\.astro$/i.test(file)) return astroFrontmatterUnits(file, code)
  if (!/\.(vue|svelte)$/i.test(file))
    return [{ parseName: file, code, lang: 'tsx', sourceType: 'unambiguous' }]
  return scriptBlockUnits(file, code)
}

/** One unit per `<script>` block of a .vue or .svelte file, found by a regular expression. */
export function scriptBlockUnits(file: string, code: string): ParseUnit[] {
  // A `<script>` inside an HTML comment is not a block; blank comments out keeping offsets.
  const scan = code.includes('<!--') ? code.replace(COMMENT, (c) => ' '.repeat(c.length)) : code
  const units: ParseUnit[] = []
  SCRIPT_BLOCK.lastIndex = 0
  for (let m = SCRIPT_BLOCK.exec(scan); m; m = SCRIPT_BLOCK.exec(scan)) {
    const attrs = m[1] ?? ''
    const requested = LANG_ATTR.exec(attrs)?.[1]?.toLowerCase() ?? 'js'
    const blockLang: ParseUnit['lang'] =
      requested === 'ts' || requested === 'typescript' ? 'ts' : requested === 'tsx' ? 'tsx' : 'jsx'
    const bodyStart = m.index + '<script'.length + attrs.length + 1
    const body = code.slice(bodyStart, bodyStart + m[2]!.length)
    units.push({ parseName: file, code: ' '.repeat(bodyStart) + body, lang: blockLang, sourceType: 'module' })
  }
  return units
}
