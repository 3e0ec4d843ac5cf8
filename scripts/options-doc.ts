/**
 * The README's option table comes from the JSDoc of `Options` in src/options.ts: one source, so the
 * docs and the code cannot disagree. `npm run docs` rewrites the table; a test fails when it is stale.
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

export function readmeWithTable(readme: string): string {
  const start = readme.indexOf(START)
  const end = readme.indexOf(END)
  if (start < 0 || end < start) throw new Error(`README.md needs the markers ${START} ... ${END}`)
  return `${readme.slice(0, start + START.length)}\n${optionsTable()}\n${readme.slice(end)}`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = `${root}README.md`
  writeFileSync(file, readmeWithTable(readFileSync(file, 'utf8')))
  console.log('README.md: options table updated')
}
