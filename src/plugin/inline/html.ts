/**
 * The HTML pages of a locale copy say which language they are in: `<html lang="fr-FR">`, and
 * `dir="rtl"` for right-to-left languages (and the `ar-XB` pseudo-locale), so the browser's
 * hyphenation, fonts, screen readers and text direction follow the copy.
 */

const RTL_LANGUAGES = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug'])

export function isRightToLeft(locale: string): boolean {
  return RTL_LANGUAGES.has(locale.split('-')[0]!.toLowerCase())
}

const HTML_TAG = /<html\b((?:[^>"']|"[^"]*"|'[^']*')*)>/i

function setAttribute(attributes: string, name: string, value: string): string {
  const re = new RegExp(`(\\s${name}\\s*=\\s*)(?:"[^"]*"|'[^']*'|[^\\s>"']+)`, 'i')
  return re.test(attributes)
    ? attributes.replace(re, `$1"${value}"`)
    : `${attributes.replace(/\s*\/?$/, '')} ${name}="${value}"`
}

/** The page with its `<html>` element's `lang` (and `dir` when needed) set for `locale`. */
export function localizeHtml(html: string, locale: string): string {
  const m = HTML_TAG.exec(html)
  // A fragment without an <html> element (a partial template) is left as it is.
  if (!m) return html
  let attributes = setAttribute(m[1]!, 'lang', locale)
  if (isRightToLeft(locale)) attributes = setAttribute(attributes, 'dir', 'rtl')
  else if (/\sdir\s*=/i.test(attributes)) attributes = setAttribute(attributes, 'dir', 'ltr')
  return `${html.slice(0, m.index)}<html${attributes}>${html.slice(m.index + m[0].length)}`
}
