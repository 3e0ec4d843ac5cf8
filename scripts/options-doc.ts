/**
 * The option table of docs/options.md comes from the JSDoc of `Options` in src/options.ts: one source,
 * so the docs and the code cannot disagree. `npm run docs` rewrites the table; a test fails when it is
 * stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = fileURLToPath(new URL('..', import.meta.url))
const START = '<!-- options:start (generated from src/options.ts by npm run docs) -->'
const END = '<!-- options:end -->'

export function optionsTable(): string {
  const file = `${root}src/options.ts`
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const rows: string[] = ['| option | type | default | description |', '| --- | --- | --- | --- |']
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== 'Options') return
    for (const member of node.members) {
      if (!ts.isPropertySignature(member) || !member.type) continue
      const name = member.name.getText(source)
      const type = member.type.getText(source).replace(/\s+/g, ' ')
      const doc = ts.getJSDocCommentsAndTags(member).find(ts.isJSDoc)
      const text = (typeof doc?.comment === 'string' ? doc.comment : '').replace(/\s+/g, ' ').trim()
      const tag = (tagName: string) =>
        doc?.tags
          ?.filter((t) => t.tagName.text === tagName)
          .map((t) =>
            (typeof t.comment === 'string' ? t.comment : '')
              .replace(/\s+/g, ' ')
              .replace(/\*\\\//g, '*/')
              .trim(),
          )
          .join(' ') ?? ''
      const example = tag('example')
      const cell = (s: string) => s.replace(/\|/g, '\\|')
      rows.push(
        `| \`${name}\` | \`${cell(type)}\` | ${cell(tag('default'))} | ${cell(text)}${example ? ` Example: \`${cell(example)}\`` : ''} |`,
      )
    }
  })
  return rows.join('\n')
}

export const OPTIONS_DOC = 'docs/options.md'

export function withOptionsTable(doc: string): string {
  const start = doc.indexOf(START)
  const end = doc.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${OPTIONS_DOC} needs the markers ${START} ... ${END}`)
  return `${doc.slice(0, start + START.length)}\n${optionsTable()}\n${doc.slice(end)}`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = `${root}${OPTIONS_DOC}`
  writeFileSync(file, withOptionsTable(readFileSync(file, 'utf8')))
  console.log(`${OPTIONS_DOC}: options table updated`)
}
