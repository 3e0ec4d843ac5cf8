import { jsString } from '../../core/js-string'
import { LOCALE_MARKER } from './markers'

/**
 * The virtual runtime module of an inline build. Each copy is one locale: `getLocale()` returns it
 * (`__tms_locale()` becomes the copy's locale literal), there is no catalog to load, and
 * `setLocale(other)` rejects with an error that says to load the other locale's copy instead. Message
 * calls never reach the runtime: the transform leaves them to be replaced in the finished chunks.
 */
export function inlineRuntimeModule(runtime: string, locales: readonly string[]): string {
  return [
    runtime,
    `const __tms_here = ${LOCALE_MARKER}();`,
    'const __tms_copies = {};',
    `for (const locale of ${JSON.stringify(locales)}) {`,
    '  if (locale !== __tms_here) __tms_copies[locale] = () => Promise.reject(new Error(',
    `    ${jsString('[unplugin-tms] this page is the ')} + __tms_here + ${jsString(" copy of an inline build (mode: 'inline'): switching to ")} + locale + ${jsString(' means loading the ')} + locale + ${jsString(' copy (its own directory of the build output)')}`,
    '  ));',
    '}',
    '_r(__tms_here, __tms_copies);',
    '',
  ].join('\n')
}
