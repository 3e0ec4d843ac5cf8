// Runs in a child process with TZ=UTC: formats each conformance case with a built app (or untransformed
// t) and with intl-messageformat on the same text and locale, and prints both.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { IntlMessageFormat } from 'intl-messageformat'

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const tagFunction = (name, kind) =>
  kind === 'object' ? (chunks) => ({ [name]: chunks }) : (chunks) => `<${name}>${chunks.join('')}</${name}>`
const revive = (v, name) => {
  if (Array.isArray(v)) return v.map((x, i) => revive(x, String(i)))
  if (!v || typeof v !== 'object') return v
  if ('$date' in v) return new Date(v.$date)
  if ('$tag' in v) return tagFunction(name, v.$tag)
  if ('$bigint' in v) return BigInt(v.$bigint)
  if ('$object' in v) return { toString: () => v.$object }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x, k)]))
}
// A rich-text result (an array of pieces) is compared as JSON; an error by its message.
const shown = (result) => (typeof result === 'string' ? result : `JSON ${JSON.stringify(result)}`)
const attempt = (fn) => {
  try {
    return shown(fn())
  } catch (error) {
    return `THREW ${error.message}`
  }
}
const out = []
for (const group of input.groups) {
  const app = await import(pathToFileURL(group.entry).href)
  if (group.setLocale) await app.setLocale(group.locale)
  for (const c of group.cases) {
    const values = revive(c.values)
    const got = attempt(() => app.messages[c.index](values))
    const expected = attempt(() => new IntlMessageFormat(c.text, group.locale).format(values))
    out.push({ id: c.id, locale: group.locale, text: c.text, got, expected })
  }
}
process.stdout.write(JSON.stringify(out))
