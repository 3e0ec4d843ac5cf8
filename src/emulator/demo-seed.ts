import type { EmulatorSeed } from './types'

/**
 * The emulator's state when started without `--seed`: one user, one account, one project
 * (en-US -> fr-FR, de-DE, ja-JP) and a small translation memory for the auto-translator.
 */
export const DEMO_SEED: EmulatorSeed = {
  users: [{ userIdentifier: 'demo-user', userSecret: 'demo-secret' }],
  accounts: [
    {
      accountUid: 'demo-account',
      projects: [
        { projectId: 'demo-project', sourceLocaleId: 'en-US', targetLocaleIds: ['fr-FR', 'de-DE', 'ja-JP'] },
      ],
    },
  ],
  translationMemory: [
    { localeId: 'fr-FR', source: 'Hello {0}!', target: 'Bonjour {0} !' },
    { localeId: 'de-DE', source: 'Hello {0}!', target: 'Hallo {0}!' },
    { localeId: 'ja-JP', source: 'Hello {0}!', target: 'こんにちは、{0}！' },
    { localeId: 'fr-FR', source: 'Save', target: 'Enregistrer' },
    { localeId: 'de-DE', source: 'Save', target: 'Speichern' },
    { localeId: 'ja-JP', source: 'Save', target: '保存' },
    { localeId: 'fr-FR', source: 'Cancel', target: 'Annuler' },
    { localeId: 'de-DE', source: 'Cancel', target: 'Abbrechen' },
    { localeId: 'ja-JP', source: 'Cancel', target: 'キャンセル' },
    { localeId: 'fr-FR', source: 'You have {0} new messages', target: 'Vous avez {0} nouveaux messages' },
    { localeId: 'de-DE', source: 'You have {0} new messages', target: 'Sie haben {0} neue Nachrichten' },
    { localeId: 'ja-JP', source: 'You have {0} new messages', target: '新しいメッセージが{0}件あります' },
  ],
}
