import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { OPTIONS_DOC, withOptionsTable } from '../scripts/options-doc'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (file: string) => readFileSync(join(root, file), 'utf8')
const pages = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)
const documents = ['README.md', ...pages]

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')
}

describe('the docs', () => {
  it('option table is the one src/options.ts documents (npm run docs)', () => {
    const doc = read(OPTIONS_DOC)
    expect(doc).toBe(withOptionsTable(doc))
    expect(doc).toContain('| `locales` | `string[]` |')
  })

  it('links reach existing files and headings', () => {
    const broken: string[] = []
    for (const file of documents) {
      const text = read(file).replace(/```[\s\S]*?```/g, '')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const [path, hash] = target!.split('#')
        const resolved = path ? join(dirname(file), path) : file
        if (!existsSync(join(root, resolved))) {
          broken.push(`${file}: ${target}`)
          continue
        }
        if (hash && resolved.endsWith('.md')) {
          const headings = read(resolved)
            .split('\n')
            .filter((l) => /^#{1,6} /.test(l))
            .map((l) => anchor(l.replace(/^#+ /, '')))
          if (!headings.includes(hash)) broken.push(`${file}: ${target}`)
        }
      }
    }
    expect(broken).toEqual([])
  })

  it('README links every docs page and stays a short start (under 20 KB)', () => {
    const readme = read('README.md')
    for (const page of pages) expect(readme, page).toContain(`](${page})`)
    expect(Buffer.byteLength(readme)).toBeLessThan(20 * 1024)
  })

  it("the README's Requirements line gives each bundler's peer range as package.json does", () => {
    const peers = JSON.parse(read('package.json')).peerDependencies as Record<string, string>
    const requirements = read('README.md')
      .split('\n\n')
      .find((paragraph) => paragraph.startsWith('Requirements: '))
    const bundlers = ['vite', 'webpack', 'rollup', 'esbuild', '@rspack/core', 'rolldown']
    const stated = bundlers.map((name) => `${name} \`${peers[name]}\``)
    for (const range of stated) expect(requirements?.replace(/\s+/g, ' '), range).toContain(range)
    // The lines the README promises, at least.
    expect(stated).toEqual([
      'vite `^5.0.0 || ^6.0.0 || ^7.0.0 || ^8.0.0`',
      'webpack `^5.90.0`',
      'rollup `^3.0.0 || ^4.0.0`',
      'esbuild `>=0.19.0`',
      '@rspack/core `^1.0.0 || ^2.0.0`',
      'rolldown `^1.0.0`',
    ])
  })

  it('state the supported Node versions once: the README, as package.json engines says', () => {
    const engines = JSON.parse(read('package.json')).engines.node as string
    expect(engines).toBe('^20.19.0 || >=22.12.0')
    const readme = read('README.md')
    expect(readme.split(engines).length - 1).toBe(1)
    for (const file of documents) {
      const text = read(file)
      expect(text, file).not.toMatch(/Node(?:\.js)? v?\d+(?:\.\d+)* (?:or later|or newer|and later|\+)/i)
      if (file !== 'README.md') expect(text, file).not.toContain(engines)
    }
  })
})
