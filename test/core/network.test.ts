import { readdirSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import { expect, it } from 'vitest'
import { mayUseNetwork } from '../../src/core/model/options'

const src = new URL('../../src/', import.meta.url).pathname

it('may this run use the network: yes unless the cache mode reads the cache only', () => {
  const modes = ['prefer-network', 'refresh', 'offline', 'frozen'] as const
  expect(modes.map((cache) => [cache, mayUseNetwork({ cache })])).toEqual([
    ['prefer-network', true],
    ['refresh', true],
    ['offline', false],
    ['frozen', false],
  ])
})

it('the question is asked of mayUseNetwork only: no other file of src/ compares the cache mode with offline and frozen', () => {
  const spelled: string[] = []
  for (const entry of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue
    const file = `src/${entry.split(sep).join('/')}`
    for (const line of readFileSync(join(src, entry), 'utf8').split('\n')) {
      if (/[!=]==\s*'offline'/.test(line) && /[!=]==\s*'frozen'/.test(line)) spelled.push(file)
    }
  }
  expect(spelled).toEqual(['src/core/model/options.ts'])
})
