/**
 * Text written into generated code (catalogs, source texts, module ids) as a string literal it cannot
 * break out of: the invariant "a translation cannot break out of its literal" rests on this one function.
 */

const NEEDS_ESCAPE = /[\u2028\u2029<]/
/** No quote, backslash, control character, surrogate (a lone one is escaped), line separator or `<`. */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff\u2028\u2029<]*$/

/**
 * A JS string literal for any text: JSON quoting plus the characters that end a line or a script
 * element. Lone surrogates come out escaped (well-formed JSON.stringify), so the module stays valid
 * UTF-8 and the literal holds exactly the input.
 */
export function jsString(text: string): string {
  // Most texts hold nothing JSON would escape and nothing of NEEDS_ESCAPE: quoted as they are.
  if (PLAIN.test(text)) return `"${text}"`
  const json = JSON.stringify(text)
  // Most texts hold none of these: one test instead of three replacing passes (catalogs quote thousands).
  if (!NEEDS_ESCAPE.test(json)) return json
  return json
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/<(\/?script|!--)/gi, '\\u003c$1')
}
