/**
 * The canonical spelling of a locale id (`fr-FR`, `zh-Hans-CN`), or undefined when it is not a
 * well-formed BCP 47 tag. Used where the spec asks for "a valid locale" outside a project.
 */
export function canonicalLocale(localeId: string): string | undefined {
  if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(localeId)) return undefined
  try {
    return Intl.getCanonicalLocales(localeId.replace(/_/g, '-'))[0]
  } catch {
    return undefined
  }
}

const knownLanguages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
const knownRegions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })

/**
 * Whether a canonical locale id names a language (and region) that exist: `zz`, `zz-ZZ`, `und` and
 * `fr-ZZ` are well-formed but name none. Node's ICU data (CLDR) decides; `ZZ` is CLDR's "unknown
 * region", so it is refused too.
 */
export function isKnownLocale(localeId: string): boolean {
  try {
    const { language, region } = new Intl.Locale(localeId)
    if (language === 'und' || knownLanguages.of(language) === undefined) return false
    return region === undefined || (region !== 'ZZ' && knownRegions.of(region) !== undefined)
  } catch {
    return false
  }
}

const names = new Intl.DisplayNames(['en'], { type: 'language' })

/** An English name for a locale (`French (France)`), as the progress report's description. */
export function describeLocale(localeId: string): string {
  try {
    return names.of(localeId) ?? localeId
  } catch {
    return localeId
  }
}
