import { describe, expect, it } from 'vitest'
import type { FileExtraction } from '../../src/core/extract/index'
import { ModuleUsage } from '../../src/plugin/module-usage'

describe('ModuleUsage', () => {
  const usage = (): ModuleUsage => new ModuleUsage(new Map(), () => new Set())

  it('names the files transformed since a mark, each once', () => {
    const u = usage()
    u.setFileIds('/a.js', new Set(['a1']))
    const mark = u.transforms
    u.setFileIds('/b.js', new Set(['b1']))
    u.setFileIds('/c.js', new Set(['c1']))
    u.setFileIds('/b.js', new Set(['b2']))
    expect(mark).toBe(1)
    expect(u.transforms).toBe(4)
    expect([...u.transformedSince(mark)!]).toEqual(['/b.js', '/c.js'])
    expect([...u.transformedSince(u.transforms)!]).toEqual([])
    expect(u.idsOfFile('/b.js')).toEqual(new Set(['b2']))
  })

  it('forgets the transforms before the lowest mark a reader keeps, and says so to an older mark', () => {
    const u = usage()
    for (const file of ['/a.js', '/b.js', '/c.js', '/d.js']) u.setFileIds(file, new Set())
    u.forgetBefore(2)
    expect(u.transforms).toBe(4)
    expect(u.transformedSince(1)).toBeUndefined()
    expect([...u.transformedSince(2)!]).toEqual(['/c.js', '/d.js'])
    u.setFileIds('/e.js', new Set())
    expect([...u.transformedSince(3)!]).toEqual(['/d.js', '/e.js'])
    // A mark past the last transform forgets them all, and the count goes on.
    u.forgetBefore(9)
    expect(u.transforms).toBe(5)
    expect(u.transformedSince(4)).toBeUndefined()
    expect([...u.transformedSince(5)!]).toEqual([])
    u.setFileIds('/f.js', new Set())
    expect([...u.transformedSince(5)!]).toEqual(['/f.js'])
  })

  it("names the bundle's ids by the hashes the transform memo keeps them under, whatever the modules' order", () => {
    const started = (calls: number) => ({ calls: new Array(calls) }) as unknown as FileExtraction
    const u = new ModuleUsage(
      new Map([
        ['/s.js', started(1)],
        ['/quiet.js', started(0)],
      ]),
      () => new Set(),
    )
    u.setFileIds('/a.js', new Set(['a1']), 'ha')
    u.setFileIds('/b.vue', new Set(['b1']), 'hb')
    // No call site: nothing to name, whether the memo keeps it or not.
    u.setFileIds('/none.js', new Set())
    const files = ['/b.vue?vue&type=script', '/a.js', '/none.js', '/quiet.js', '/lib.js']
    const key = u.rememberedKey(files)
    expect(key).toBe('/a.js\u0000ha\n/b.vue\u0000hb')
    expect(u.rememberedKey([...files].reverse())).toBe(key)
    // The build start's sites of a module no transform met: only their ids tell.
    expect(u.rememberedKey([...files, '/s.js'])).toBeUndefined()
    // Made again, not kept by the memo (its content changed since the start): the same.
    u.setFileIds('/a.js', new Set(['a1']))
    expect(u.rememberedKey(files)).toBeUndefined()
    u.setFileIds('/a.js', new Set(['a2']), 'ha2')
    expect(u.rememberedKey(files)).toBe('/a.js\u0000ha2\n/b.vue\u0000hb')
    expect(u.rememberedKey(['/none.js', '/lib.js'])).toBeUndefined()
  })
})
