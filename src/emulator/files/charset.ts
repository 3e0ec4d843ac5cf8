import { validationError } from '../http/envelope'

/** How an uploaded file was encoded, and so how its downloads are encoded. */
export interface FileCharset {
  /** The WHATWG name the bytes were decoded with (`utf-8`, `utf-16le`, `windows-1252`...). */
  decodedAs: string
  /** Downloads: UTF-16 stays UTF-16 (same byte order), everything else becomes UTF-8. */
  output: 'utf-8' | 'utf-16le' | 'utf-16be'
  /** Whether the upload started with a byte order mark; downloads keep it. */
  bom: boolean
  /** `svc.file_charset` as given, or null when the charset was detected. */
  declared: string | null
}

/** The charset parameter of a media type (`text/plain; charset=UTF-16`), if any. */
export function charsetParameter(contentType: string | null | undefined): string | null {
  const m = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType) : null
  return m ? m[1]! : null
}

function normalise(label: string, field: string): string {
  try {
    return new TextDecoder(label.trim()).encoding
  } catch {
    throw validationError(field, `${JSON.stringify(label)} is not a known character set`)
  }
}

/**
 * UTF-16 without a byte order mark: text in Latin script has a zero byte in every other position.
 * Looks at the first 4 KiB; at least 30% of one parity zero and almost none of the other.
 */
function sniffUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1
  if (n < 4) return null
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++
    if (bytes[i + 1] === 0) oddZeros++
  }
  const pairs = n / 2
  if (oddZeros >= pairs * 0.3 && evenZeros <= pairs * 0.05) return 'utf-16le'
  if (evenZeros >= pairs * 0.3 && oddZeros <= pairs * 0.05) return 'utf-16be'
  return null
}

/**
 * Decodes an upload. The charset comes from `svc.file_charset`, else the part's Content-Type, else
 * a byte order mark or the UTF-16 zero-byte pattern, else UTF-8 (which must then be valid).
 */
export function decodeUpload(
  bytes: Uint8Array,
  declared: string | null,
  partContentType: string | null,
): { text: string; charset: FileCharset } {
  let encoding: string | null = null
  let field = 'svc.file_charset'
  if (declared !== null && declared !== '') encoding = normalise(declared, field)
  else {
    const fromType = charsetParameter(partContentType)
    if (fromType) {
      field = 'file'
      encoding = normalise(fromType, 'file (Content-Type charset)')
    }
  }
  const bomOf = (e: string): boolean => {
    if (e === 'utf-8') return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
    if (e === 'utf-16le') return bytes[0] === 0xff && bytes[1] === 0xfe
    if (e === 'utf-16be') return bytes[0] === 0xfe && bytes[1] === 0xff
    return false
  }
  if (encoding === null) {
    if (bomOf('utf-16le')) encoding = 'utf-16le'
    else if (bomOf('utf-16be')) encoding = 'utf-16be'
    else encoding = sniffUtf16(bytes) ?? 'utf-8'
  }
  // "utf-16" as a label means little-endian unless the bytes say otherwise.
  if (encoding === 'utf-16le' && bomOf('utf-16be')) encoding = 'utf-16be'
  let text: string
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes)
  } catch {
    throw validationError(
      field,
      encoding === 'utf-8' && declared === null
        ? 'is not valid UTF-8; name its character set in svc.file_charset'
        : `is not valid ${encoding}`,
    )
  }
  const output = encoding === 'utf-16le' || encoding === 'utf-16be' ? encoding : 'utf-8'
  return {
    text,
    charset: { decodedAs: encoding, output, bom: bomOf(encoding), declared: declared || null },
  }
}

/** The bytes of a download in the file's output charset. */
export function encodeDownload(text: string, charset: FileCharset): Buffer {
  const bom = charset.bom ? '\ufeff' : ''
  if (charset.output === 'utf-8') return Buffer.from(bom + text, 'utf8')
  const bytes = Buffer.from(bom + text, 'utf16le')
  return charset.output === 'utf-16be' ? bytes.swap16() : bytes
}

/** The charset name stated in a download's Content-Type. */
export function charsetLabel(charset: FileCharset): string {
  return charset.output === 'utf-8' ? 'UTF-8' : charset.output.toUpperCase()
}
