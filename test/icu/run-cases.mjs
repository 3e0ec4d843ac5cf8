// Runs in a child process with TZ=UTC: formats each case with a built app (one import per locale
// copy, or one app and setLocale) and with intl-messageformat on the same text, and prints both.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { IntlMessageFormat } from 'intl-messageformat'

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const tagFunction = (name, kind) =>
  kind === 'object' ? (chunks) => ({ [name]: chunks }) : (chunks) => `<${name}>${chunks.join('')}</${name}>`
const revive = (values) =>
  Object.fromEntries(
    Object.entries(values).map(([k, v]) => [
      k,
      v && typeof v === 'object' && '$date' in v
        ? new Date(v.$date)
        : v && typeof v === 'object' && '$tag' in v
          ? tagFunction(k, v.$tag)
          : v,
    ]),
  )
// A rich-text result (an array of pieces) is compared as JSON.
const shown = (result) => (typeof result === 'string' ? result : `JSON ${JSON.stringify(result)}`)
const out = []
for (const group of input.groups) {
  const app = await import(pathToFileURL(group.entry).href)
  if (group.setLocale) await app.setLocale(group.locale)
  for (const c of group.cases) {
    const values = revive(c.values)
    let got
    let expected
    try {
      got = shown(app.messages[c.index](values))
    } catch (error) {
      got = `THREW ${error.message}`
    }
    try {
      expected = shown(new IntlMessageFormat(c.text, group.locale).format(values))
    } catch (error) {
      expected = `THREW ${error.message}`
    }
    out.push({ locale: group.locale, text: c.text, values: c.values, got, expected })
  }
}
process.stdout.write(JSON.stringify(out))
