/** Where a message is used: an absolute file, 1-based line and column (UTF-16 code units). */
export interface MessageLocation {
  file: string
  line: number
  column: number
}

/** One source string as the service will know it. */
export interface Message {
  /** Identity: {@link messageKey}(parsed, variant, namespace). */
  key: string
  /** As the app wrote it, e.g. `Hello {name}!`. With several spellings, the first location's. */
  text: string
  /** `parsedStringText` under the placeholder spec, e.g. `Hello {0}!`. */
  parsed: string
  /** Original placeholder spellings of `text`, in order: `['{name}']`. */
  placeholders: string[]
  variant: string | null
  namespace: string | null
  instruction?: string
  maxLength?: number
  /** Sorted by file, then line, then column. */
  locations: MessageLocation[]
}

/** A UTF-16 range `[start, end)` in the original file text. */
export interface Range {
  start: number
  end: number
}

/** Everything a bundler transform needs to rewrite one call with magic-string, without parsing again. */
export interface CallSite {
  messageKey: string
  /** For plural keywords (`_n:1,2`): the plural text's message. */
  pluralKey?: string
  /** The runtime's `msg`: the site becomes a lazy descriptor instead of a lookup. */
  descriptor?: true
  /**
   * A message call (not a descriptor) outside every function and class of a plain script: it runs
   * once, when the module is evaluated, so in runtime mode it never follows a locale switch.
   */
  moduleLevel?: true
  /**
   * `attribute`: a component's static attribute holding the text, Vue's `<T msg="...">`; `callee` is
   * its name, `args` its value inside the quotes. `jsx`: React's `<T>` element (see `jsx`).
   */
  kind: 'call' | 'tagged' | 'attribute' | 'jsx'
  /** The whole call, tagged template, attribute or `<T>` element. */
  start: number
  end: number
  callee: Range
  /** Calls: each argument's range, in order; attributes: the value. */
  args: Range[]
  /** Tagged templates: each `${expr}` and the placeholder name it became (`name` or `0`). */
  expressions?: (Range & { name: string })[]
  /** `<T>` elements (see jsx-element.ts): the opening element and the message's elements and values. */
  jsx?: JsxSite
  /** This site's own placeholder spellings (two sites may share a key with different spellings). */
  placeholders: string[]
  /** Plural keywords: the plural text's own placeholder spellings. */
  pluralPlaceholders?: string[]
  line: number
  column: number
  /**
   * A call inside a Vue template: how the expression holding it is written, so that the code the
   * transform writes there stays valid markup (in a `"`-quoted attribute, its strings are single-quoted).
   */
  markup?: Markup
}

/** What the rewrite of one `<T>` element needs: every range is in the original file. */
export interface JsxSite {
  /** `<T ...>`: its props stay; the lookup goes in place of its `>`. */
  open: Range
  /** In source order: each element (a tag of the message) and each `{expression}` (a placeholder). */
  pieces: JsxPiece[]
}

/**
 * An element of a `<T>` message: its opening element stays in the code (props, keys, expressions);
 * `close` is the closing element's name as written, null for a self-closing element. `key` is where a
 * `key` prop goes (after the name), null when the element has one.
 */
export interface JsxTag extends Range {
  kind: 'tag'
  name: string
  close: string | null
  key: number | null
}

/** A `{value}` of a `<T>` message: the expression's range and the placeholder it became. */
export interface JsxValue extends Range {
  kind: 'value'
  name: string
}

export type JsxPiece = JsxTag | JsxValue

/** Where a template expression is written: `{{ }}`, an attribute value in `"` or `'`, or unquoted. */
export type Markup = 'text' | 'double' | 'single' | 'unquoted'

export interface Diagnostic {
  severity: 'warning' | 'error'
  /** Stable: `non-literal-text`, `text-too-long`, `parse-error`, ... */
  code: string
  /** Self-contained: starts with `file:line:column` (file relative to cwd). */
  message: string
  /** Absolute path. */
  file: string
  line?: number
  column?: number
}

/** The result for one file: its messages (locations in this file only), call sites and problems. */
export interface FileExtraction {
  file: string
  /** sha1 of the file text: the cache key, and how the transform finds these call sites again. */
  hash: string
  messages: Message[]
  calls: CallSite[]
  diagnostics: Diagnostic[]
}

/**
 * A file's result as the extraction cache (cache.ts) keeps it, in memory and on disk; here, below
 * the cache, since the digest of a set of them (files-digest.ts) is part of the cache's merged line.
 */
export interface CachedFile {
  digest: string
  hash: string
  /** The result's encoded form when it already exists (read from disk, sent by a worker). */
  payload?: string
  /** -1: never matches a stat, so the file is read and hashed before the cached file is trusted. */
  size: number
  mtimeMs: number
  result: FileExtraction
}

/** What {@link extractMessages} returns. */
export interface ExtractResult {
  /** Sorted by text, then variant. */
  readonly messages: Message[]
  /** `messages.length`, known without reading them. */
  count: number
  /** How many messages may name a style (`mayNameAStyle`): none, and their style check reads none. */
  styled: number
  /** The digest of `messages` (see `messagesDigest`). */
  digest: string
  files: Map<string, FileExtraction>
  /** Sorted by file, line, column. */
  diagnostics: Diagnostic[]
  stats: ExtractStats
}

/** How the work was done; for logs and the benchmark. */
export interface ExtractStats {
  files: number
  /** Files parsed in this run (the rest came from a cache or had no keyword). */
  parsed: number
  /** Results taken from the in-process or disk cache. */
  cached: number
  /** Files without any keyword mention, skipped without parsing. */
  skipped: number
  /** Worker threads that parsed at least one batch (0: all on the calling thread). */
  workers: number
}

/**
 * The identity of a message: the same parsed text, variant and namespace is the same string on the
 * service. Built like the input of the service's hashcode (null and absent read as empty), so two keys
 * are equal exactly when the hashcodes are.
 */
export function messageKey(parsed: string, variant: string | null, namespace: string | null): string {
  return `${namespace ?? ''}\u0000${variant ?? ''}\u0000${parsed}`
}

/** Orders messages by text, then variant (no variant first), then namespace; code-unit order. */
export function compareMessages(a: Message, b: Message): number {
  if (a.text !== b.text) return a.text < b.text ? -1 : 1
  if (a.variant !== b.variant) {
    if (a.variant === null) return -1
    if (b.variant === null) return 1
    return a.variant < b.variant ? -1 : 1
  }
  const na = a.namespace ?? ''
  const nb = b.namespace ?? ''
  return na === nb ? 0 : na < nb ? -1 : 1
}
