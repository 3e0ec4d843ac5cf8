import { describe, expect, it } from 'vitest'
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
})
