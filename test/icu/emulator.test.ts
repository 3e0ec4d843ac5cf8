import { describe, expect, test } from 'vitest'
import { countWords } from '../../src/emulator/words'
import { PROJECT, STRINGS, useEmulator } from '../emulator/helpers'

describe('the emulator and ICU messages', () => {
  test('word counts count literal text only, not ICU syntax', () => {
    expect(countWords('You have {count, plural, =0 {no files} one {# file} other {# files}}')).toBe(6)
    expect(countWords('{gender, select, female {She} male {He} other {They}} replied')).toBe(4)
    expect(countWords('Hello {0}, {1, number, ::currency/EUR} due')).toBe(2)
    expect(countWords("It''s '{'literal'}'")).toBe(2)
    expect(countWords('Save the file')).toBe(3)
    expect(countWords('Save {0} now')).toBe(2)
  })

  describe('auto-translator', () => {
    const emu = useEmulator({
      seed: {
        users: [{ userIdentifier: 'demo-user', userSecret: 'demo-secret' }],
        accounts: [
          {
            accountUid: 'acc',
            projects: [{ projectId: PROJECT, sourceLocaleId: 'en-US', targetLocaleIds: ['fr-FR', 'en-XA'] }],
          },
        ],
        translationMemory: [
          { localeId: 'fr-FR', source: 'You have', target: 'Vous avez' },
          { localeId: 'fr-FR', source: 'no files', target: 'aucun fichier' },
          { localeId: 'fr-FR', source: 'file', target: 'fichier' },
          { localeId: 'fr-FR', source: 'files', target: 'fichiers' },
        ],
      },
      autoTranslate: { mode: 'memory' },
    })

    async function translationOf(hashcode: string, locale: string): Promise<string | undefined> {
      const r = await emu.api('GET', `${STRINGS}/translations?targetLocaleId=${locale}&hashcodes=${hashcode}`)
      return r.body.response.data.items[0]?.translations[0]?.translation
    }

    test('translation memory translates the literal segments of an ICU message and keeps its syntax', async () => {
      const [hashcode, partial] = await emu.createStrings([
        { stringText: 'You have {count, plural, =0 {no files} one {# file} other {# files}}' },
        { stringText: 'You have {count, plural, one {# file} other {# folders}}' },
      ])
      await emu.control('POST', `/projects/${PROJECT}/strings/authorize`, {})
      expect(await translationOf(hashcode!, 'fr-FR')).toBe(
        'Vous avez {count, plural, =0 {aucun fichier} one {# fichier} other {# fichiers}}',
      )
      // A segment the memory lacks: no translation rather than a half-translated one.
      expect(await translationOf(partial!, 'fr-FR')).toBeUndefined()
    })

    test('pseudo mode accents only the literal text', async () => {
      await emu.control('POST', `/projects/${PROJECT}/auto-translate`, { mode: 'pseudo' })
      const [hashcode] = await emu.createStrings([
        { stringText: '{n, selectordinal, one {#st place} other {#th place}} for {name}' },
      ])
      await emu.control('POST', `/projects/${PROJECT}/strings/authorize`, {})
      expect(await translationOf(hashcode!, 'fr-FR')).toMatch(
        /^\[\{n, selectordinal, one \{#šţ þļáçé\} other \{#ţĥ þļáçé\}\} ƒöŕ \{name\}[ a-z]*\]$/,
      )
    })
  })
})
